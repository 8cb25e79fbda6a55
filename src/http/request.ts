import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { constantTimeEqual } from "../crypto/random.ts";
import { AuthError, type ErrorKey } from "../errors.ts";
import { claimLogSlot, loggableText, recordSecurityEvent } from "../services/security-events.ts";
import { requestSource } from "./security-log.ts";

// What a request says about its caller: server token, trusted origins and redirect targets (the client
// address is in client-address.ts).

/** True when the request carries `Authorization: Bearer <server token>` (compared in constant time). */
export function isServerCall(c: Context, ctx: AuthContext): boolean {
  const expected = ctx.config.serverToken;
  if (!expected) return false;
  const header = c.req.header("authorization");
  if (!header?.startsWith("Bearer ")) return false;
  return constantTimeEqual(header.slice("Bearer ".length).trim(), expected);
}

export function trustedOrigins(ctx: AuthContext): string[] {
  return [new URL(ctx.baseURL).origin, new URL(ctx.appURL).origin, ...ctx.config.trustedOrigins];
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
/** The same pairs as a list, made once: every request's query and body are checked against them. */
const REDIRECT_FIELD_LIST = Object.entries(REDIRECT_FIELDS);

/**
 * Refuse redirect targets that are neither trusted origins nor safe relative paths (403): each field's own
 * refusal, or `refusal` for all of them where a route answers so.
 */
export function assertTrustedRedirects(ctx: AuthContext, values: Record<string, unknown>, refusal?: ErrorKey): void {
  for (const [field, key] of REDIRECT_FIELD_LIST) {
    const value = values[field];
    if (typeof value === "string" && value !== "" && !isTrustedURL(ctx, value)) throw new AuthError(refusal ?? key);
  }
}

/**
 * Cross-site request forgery. A cookie-carrying POST must come from a trusted origin. So must a POST to a
 * route that starts a session, cookies or not: otherwise another site could sign the browser in to an
 * account of the attacker's (login CSRF). A request naming no origin at all is no browser's (servers, curl).
 */
export function assertTrustedOrigin(c: Context, ctx: AuthContext, startsSession = false): void {
  const carriesCookies = Boolean(c.req.header("cookie"));
  if (!carriesCookies && !startsSession) return;
  const origin = c.req.header("origin") || c.req.header("referer") || "";
  if (!origin && !carriesCookies) return;
  if (!origin || origin === "null" || !isTrustedURL(ctx, origin, false)) {
    const refused = recordRefusedOrigin(c, ctx, origin);
    throw new AuthError("INVALID_ORIGIN", { message: `Invalid origin: ${refused}` });
  }
}

/**
 * A cross-origin call from an origin that is not trusted gets no CORS headers, so the browser answers the app
 * with `Failed to fetch` and nothing else: the log line is all an operator has to go on.
 */
export function corsOrigin(c: Context, ctx: AuthContext, origin: string): string | null {
  if (isTrustedURL(ctx, origin, false)) return origin;
  recordRefusedOrigin(c, ctx, origin);
  return null;
}

/** The origin of an Origin or Referer value: a Referer's path and query are left out (they may hold anything). */
function originOnly(presented: string): string {
  if (!presented) return "(none)";
  if (presented === "null") return "null";
  try {
    return new URL(presented).origin;
  } catch {
    return "(not a URL)";
  }
}

/**
 * Log a refused origin (security.origin_refused, at warn, naming the setting that would allow it), once per
 * request (CORS and the origin check may both refuse it). Any web page can make its visitors' browsers call
 * here, so the lines are limited per origin (see claimLogSlot): one a minute, with the count held back.
 * Answers the refused origin as shown.
 */
function recordRefusedOrigin(c: Context, ctx: AuthContext, presented: string): string {
  const origin = loggableText(originOnly(presented));
  if (c.get("originRefused")) return origin;
  c.set("originRefused", true);
  const slot = claimLogSlot(ctx, "origin", origin);
  if (!slot) return origin;
  const path = c.req.path.slice(ctx.config.basePath.length);
  // Recorded here, not by a service: the refusal is the request pipeline's own (CORS, origin check), before any flow.
  // Log only (see LOG_ONLY in security-events.ts): nothing is written to the database, so nothing to wait for.
  void recordSecurityEvent(ctx, {
    type: "origin_refused",
    outcome: "failure",
    origin,
    path,
    setting: "AUTH_TRUSTED_ORIGINS",
    ...slot,
    userId: null,
    source: requestSource(c, ctx),
  });
  return origin;
}

declare module "hono" {
  interface ContextVariableMap {
    /** This request's refused origin is already logged (or counted). */
    originRefused: boolean;
  }
}
