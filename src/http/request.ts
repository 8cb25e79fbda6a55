import type { Context } from "hono";
import { isIP } from "node:net";
import type { AuthContext } from "../context.ts";
import { constantTimeEqual } from "../crypto/random.ts";
import { AuthError } from "../errors.ts";

// What a request says about its caller: client IP, server token, trusted origins and redirect targets.

/** The first valid IPv4/IPv6 address from the trusted proxy headers, or null. */
export function headerClientIp(c: Context, ctx: AuthContext): string | null {
  for (const header of ctx.config.trustedProxyHeaders) {
    const value = c.req.header(header);
    if (!value) continue;
    for (const part of value.split(",")) {
      const candidate = part.trim();
      if (isIP(candidate)) return candidate;
    }
  }
  return null;
}

/** For rate limiting: the header IP, else the socket peer (a daemon hit directly must still be limited). */
export function rateLimitClientKey(c: Context, ctx: AuthContext): string {
  const fromHeader = headerClientIp(c, ctx);
  if (fromHeader) return fromHeader;
  const env = c.env as { requestIP?: (req: Request) => { address: string } | null } | undefined;
  return env?.requestIP?.(c.req.raw)?.address ?? "unknown";
}

/** True when the request carries `Authorization: Bearer <server token>` (compared in constant time). */
export function isServerCall(c: Context, ctx: AuthContext): boolean {
  const expected = ctx.config.serverToken;
  if (!expected) return false;
  const header = c.req.header("authorization");
  if (!header?.startsWith("Bearer ")) return false;
  return constantTimeEqual(header.slice("Bearer ".length).trim(), expected);
}

export function trustedOrigins(ctx: AuthContext): string[] {
  return [new URL(ctx.baseURL).origin, ...ctx.config.trustedOrigins];
}

function originMatches(url: string, pattern: string): boolean {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return false;
  }
  if (!pattern.includes("*")) return origin === pattern.replace(/\/+$/, "");
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}$`).test(origin);
}

// A safe relative path: one leading slash, no scheme-relative "//", no backslash or encoded slash tricks.
const SAFE_RELATIVE = /^\/(?!\/|\\|%2f|%5c)[\w\-.+/@]*(?:\?[\w\-.+/=&%@]*)?$/i;

export function isTrustedURL(ctx: AuthContext, url: string, allowRelative = true): boolean {
  if (allowRelative && url.startsWith("/")) return SAFE_RELATIVE.test(url);
  return trustedOrigins(ctx).some((pattern) => originMatches(url, pattern));
}

export const REDIRECT_FIELDS = {
  callbackURL: "INVALID_CALLBACK_URL",
  redirectTo: "INVALID_REDIRECT_URL",
  errorCallbackURL: "INVALID_ERROR_CALLBACK_URL",
  newUserCallbackURL: "INVALID_NEW_USER_CALLBACK_URL",
} as const;

/** Refuse redirect targets that are neither trusted origins nor safe relative paths (403). */
export function assertTrustedRedirects(ctx: AuthContext, values: Record<string, unknown>): void {
  for (const [field, key] of Object.entries(REDIRECT_FIELDS)) {
    const value = values[field];
    if (typeof value === "string" && value !== "" && !isTrustedURL(ctx, value)) throw new AuthError(key);
  }
}

/** A cookie-carrying POST must come from a trusted origin (CSRF). Requests without cookies are not at risk. */
export function assertTrustedOrigin(c: Context, ctx: AuthContext): void {
  if (!c.req.header("cookie")) return;
  const origin = c.req.header("origin") || c.req.header("referer") || "";
  if (!origin || origin === "null" || !isTrustedURL(ctx, origin, false)) throw new AuthError("INVALID_ORIGIN");
}
