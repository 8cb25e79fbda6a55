import type { MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { tooManyRequests } from "../../services/rate-limit.ts";
import { rateLimitClientKey } from "../client-address.ts";

// Per client and path. The credential-guessing paths get a tight window; configured custom rules win.

const STRICT_PREFIXES = ["/sign-in", "/sign-up", "/change-password", "/change-email", "/two-factor/"];

function ruleFor(ctx: AuthContext, path: string): { window: number; max: number } | null {
  const { customRules, window, max } = ctx.config.rateLimit;
  for (const [pattern, rule] of Object.entries(customRules)) {
    const matches = pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
    if (matches) return rule === false ? null : rule;
  }
  if (STRICT_PREFIXES.some((prefix) => path.startsWith(prefix))) return { window: 10, max: 3 };
  return { window, max };
}

export function rateLimitMiddleware(ctx: AuthContext): MiddlewareHandler {
  return async (c, next) => {
    if (!ctx.config.rateLimit.enabled || c.req.method === "OPTIONS") return next();
    const path = c.req.path.slice(ctx.config.basePath.length) || "/";
    // Readiness probes must not depend on (or fill) the counter store they partly check.
    const rule = path === "/ready" ? null : ruleFor(ctx, path);
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
