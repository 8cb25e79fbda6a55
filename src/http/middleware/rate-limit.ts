import type { MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { tooManyRequests } from "../../services/rate-limit.ts";
import { rateLimitClientKey } from "../client-address.ts";

// Per client and path. The credential-guessing paths get a tight window; configured custom rules win.

/**
 * The built-in rules beside the general one (rateLimit.window / rateLimit.max): Better Auth's tight window
 * on the paths that take a password or create an account. docs/operations.md lists them (a test keeps the
 * two in step); rateLimit.customRules replaces any of them.
 */
export const BUILT_IN_RULES: readonly { prefix: string; window: number; max: number }[] = [
  { prefix: "/sign-in", window: 10, max: 3 },
  { prefix: "/sign-up", window: 10, max: 3 },
  { prefix: "/change-password", window: 10, max: 3 },
  { prefix: "/change-email", window: 10, max: 3 },
];

/** Paths no rule counts: readiness probes must not depend on (or fill) the counter store they partly check. */
export const UNLIMITED_PATHS: readonly string[] = ["/ready"];

function ruleFor(ctx: AuthContext, path: string): { window: number; max: number } | null {
  const { customRules, window, max } = ctx.config.rateLimit;
  for (const [pattern, rule] of Object.entries(customRules)) {
    const matches = pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
    if (matches) return rule === false ? null : rule;
  }
  const builtIn = BUILT_IN_RULES.find((rule) => path.startsWith(rule.prefix));
  if (builtIn) return { window: builtIn.window, max: builtIn.max };
  return { window, max };
}

export function rateLimitMiddleware(ctx: AuthContext): MiddlewareHandler {
  return async (c, next) => {
    if (!ctx.config.rateLimit.enabled || c.req.method === "OPTIONS") return next();
    const path = c.req.path.slice(ctx.config.basePath.length) || "/";
    const rule = UNLIMITED_PATHS.includes(path) ? null : ruleFor(ctx, path);
    if (!rule) return next();
    const decision = await ctx.rateLimitStore.consume(
      `${rateLimitClientKey(c, ctx)}${path}`,
      rule.window,
      rule.max,
      ctx.now(),
    );
    if (!decision.allowed) throw tooManyRequests(decision);
    return next();
  };
}
