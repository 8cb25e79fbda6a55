import type { Context, MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { isOutage } from "../../dependencies.ts";
import { createMemoryRateLimitStore, tooManyRequests } from "../../platform/rate-limit.ts";
import { rateLimitClientKey } from "../client-address.ts";

// Per client and path. The credential-guessing paths get a tight window; configured custom rules win.

/**
 * The built-in rules beside the general one (rateLimit.window / rateLimit.max), first match wins: the
 * passwordless paths' own rules (plugins.md), each passkey ceremony step (it stores a challenge or checks a
 * signature: 10 a minute is plenty for a person and bounds what a script can make the server store), and
 * Better Auth's tight window on the paths that take a password, a code or create an account. A path ending
 * in `*` is a prefix. docs/operations.md lists them (a test keeps the two in step); rateLimit.customRules
 * replaces any of them.
 */
export const BUILT_IN_RULES: readonly { path: string; window: number; max: number }[] = [
  { path: "/sign-in/magic-link", window: 60, max: 5 },
  { path: "/magic-link/verify", window: 60, max: 5 },
  { path: "/email-otp/send-verification-otp", window: 60, max: 3 },
  { path: "/email-otp/verify-email", window: 60, max: 3 },
  { path: "/sign-in/email-otp", window: 60, max: 3 },
  { path: "/passkey/generate-register-options", window: 60, max: 10 },
  { path: "/passkey/verify-registration", window: 60, max: 10 },
  { path: "/passkey/generate-authenticate-options", window: 60, max: 10 },
  { path: "/passkey/verify-authentication", window: 60, max: 10 },
  { path: "/sign-in*", window: 10, max: 3 },
  { path: "/sign-up*", window: 10, max: 3 },
  { path: "/change-password*", window: 10, max: 3 },
  { path: "/change-email*", window: 10, max: 3 },
  { path: "/two-factor/*", window: 10, max: 3 },
];

/**
 * Paths no built-in rule counts (a custom rule still may): readiness probes must not depend on (or fill) the
 * counter store they partly check, and a reverse proxy asks /forward-auth on every request to the sites
 * behind it (a page and its images at once) and turns a 429 into an error page; it guesses nothing.
 */
export const UNLIMITED_PATHS: readonly string[] = ["/ready", "/forward-auth"];

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
