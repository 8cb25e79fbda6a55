import type { Context, MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { isOutage } from "../../dependencies.ts";
import { createMemoryRateLimitStore, tooManyRequests } from "../../platform/rate-limit.ts";
import { rateLimitClientKey } from "../client-address.ts";
import { BUILT_IN_RULES, UNLIMITED_PATHS } from "../routes/rate-limit-rules.ts";

// Per client and path. The credential-guessing paths get a tight window; configured custom rules win. The
// built-in rules, the core's and each feature's, are listed in routes/rate-limit-rules.ts.

const matchesPath = (pattern: string, path: string): boolean =>
  pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

function ruleFor(ctx: AuthContext, path: string): { window: number; max: number } | null {
  const { customRules, window, max } = ctx.config.rateLimit;
  for (const [pattern, rule] of Object.entries(customRules)) {
    if (matchesPath(pattern, path)) return rule === false ? null : rule;
  }
  if (UNLIMITED_PATHS.includes(path)) return null;
  const builtIn = BUILT_IN_RULES.find((rule) => matchesPath(rule.path, path));
  if (builtIn) return { window: builtIn.window, max: builtIn.max };
  return { window, max };
}

/** The API path a request counts as (the rule and the counter it shares), or null for none. */
type CountedPath = (c: Context) => string | null;

const apiPathOf =
  (ctx: AuthContext): CountedPath =>
  (c) =>
    c.req.path.slice(ctx.config.basePath.length) || "/";

/** `countAs` maps a request to the API path it counts as: the pages' form posts count as the API's routes. */
export function rateLimitMiddleware(ctx: AuthContext, countAs: CountedPath = apiPathOf(ctx)): MiddlewareHandler {
  // While the shared counters (Redis or the database) are down, each instance counts in its own memory: a
  // per-path limit is an abuse bound, and N instances allowing N times the rate for the outage's length beats
  // answering every request 503 when only the counter store is gone (docs/operations.md, "During an
  // outage"). The per-account sign-in throttle does not fall back: sign-in stays refused.
  const duringOutage = createMemoryRateLimitStore();
  return async (c, next) => {
    if (!ctx.config.rateLimit.enabled || c.req.method === "OPTIONS") return next();
    const path = countAs(c);
    const rule = path === null ? null : ruleFor(ctx, path);
    if (!rule || path === null) return next();
    const key = `${rateLimitClientKey(c, ctx)}${path}`;
    const decision = await ctx.rateLimitStore.consume(key, rule.window, rule.max, ctx.now()).catch((error: unknown) => {
      if (!isOutage(error)) throw error;
      return duringOutage.consume(key, rule.window, rule.max, ctx.now());
    });
    if (!decision.allowed) throw tooManyRequests(decision);
    return next();
  };
}
