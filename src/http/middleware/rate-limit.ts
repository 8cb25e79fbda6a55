import type { MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { tooManyRequests } from "../../services/rate-limit.ts";
import { rateLimitClientKey } from "../client-address.ts";

// Per client and path. The credential-guessing paths get a tight window; configured custom rules win.

const STRICT_PREFIXES = ["/sign-in", "/sign-up", "/change-password", "/change-email", "/two-factor/"];
// Each passkey ceremony step stores a challenge or checks a signature: 10 a minute per client and path is
// plenty for a person (two steps per sign-in) and bounds what a script can make the server store.
const PASSKEY_CEREMONY_PATHS = [
  "/passkey/generate-register-options",
  "/passkey/verify-registration",
  "/passkey/generate-authenticate-options",
  "/passkey/verify-authentication",
];

// The passwordless paths' own rules (plugins.md 0.5), ahead of the prefixes above: mailing links and
// codes, and checking codes. Reset by code keeps the global rule (a code dies after a few tries anyway).
const PATH_RULES: Record<string, { window: number; max: number } | "global"> = {
  "/sign-in/magic-link": { window: 60, max: 5 },
  "/magic-link/verify": { window: 60, max: 5 },
  "/email-otp/send-verification-otp": { window: 60, max: 3 },
  "/email-otp/verify-email": { window: 60, max: 3 },
  "/sign-in/email-otp": { window: 60, max: 3 },
  "/forget-password/email-otp": "global",
  "/email-otp/reset-password": "global",
};

function ruleFor(ctx: AuthContext, path: string): { window: number; max: number } | null {
  const { customRules, window, max } = ctx.config.rateLimit;
  for (const [pattern, rule] of Object.entries(customRules)) {
    const matches = pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
    if (matches) return rule === false ? null : rule;
  }
  const own = PATH_RULES[path];
  if (own) return own === "global" ? { window, max } : own;
  if (STRICT_PREFIXES.some((prefix) => path.startsWith(prefix))) return { window: 10, max: 3 };
  if (PASSKEY_CEREMONY_PATHS.includes(path)) return { window: 60, max: 10 };
  // A reverse proxy asks on every request to the sites behind it (a page and its images, all at once) and
  // turns a 429 into an error page; it guesses nothing. Only a custom rule limits it.
  if (path === "/forward-auth") return null;
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
