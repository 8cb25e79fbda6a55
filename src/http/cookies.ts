import type { Context } from "hono";
import { generateCookie, setCookie } from "hono/cookie";
import type { AuthContext } from "../context.ts";
import { hmacSha256Base64Url, signValue } from "../crypto/hmac.ts";
import { constantTimeEqual } from "../crypto/random.ts";
import type { SessionWithUser } from "../services/sessions/sessions.ts";
import type { SessionWithUser as WireSessionWithUser } from "../wire/session.ts";
import { keepJSON } from "./kept-json.ts";
import { requestCookie, verifiedCookie } from "./request-cookies.ts";
import { type CheckedDataCookie, checkDataCookie, sessionAnswer, sessionDataValue } from "./session-answers.ts";

// The three cookies of Better Auth's wire protocol: session_token ("token.signature", URL-encoded),
// session_data (a signed copy of the session, short-lived) and dont_remember (rememberMe false).

const MAX_COOKIE_AGE = 34_560_000; // 400 days, the most browsers keep
const SESSION_DATA_LIMIT = 4093;

export interface CookieNames {
  sessionToken: string;
  sessionData: string;
  dontRemember: string;
}

export function isSecureContext(ctx: AuthContext): boolean {
  const mode = ctx.config.cookies.secure;
  return mode === "on" || (mode === "auto" && ctx.baseURL.startsWith("https://"));
}

// Asked for on every request; they depend only on the configuration and the base URL.
const namesByContext = new WeakMap<AuthContext["config"], { baseURL: string; names: CookieNames }>();

export function cookieNames(ctx: AuthContext): CookieNames {
  const known = namesByContext.get(ctx.config);
  if (known && known.baseURL === ctx.baseURL) return known.names;
  const prefix = `${isSecureContext(ctx) ? "__Secure-" : ""}${ctx.config.cookies.prefix}`;
  const names = Object.freeze({
    sessionToken: `${prefix}.session_token`,
    sessionData: `${prefix}.session_data`,
    dontRemember: `${prefix}.dont_remember`,
  });
  namesByContext.set(ctx.config, { baseURL: ctx.baseURL, names });
  return names;
}

function cookieOptions(ctx: AuthContext, maxAge?: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: isSecureContext(ctx),
    domain: ctx.config.cookies.domain,
    maxAge: maxAge === undefined ? undefined : Math.min(maxAge, MAX_COOKIE_AGE),
  };
}

function write(c: Context, ctx: AuthContext, name: string, value: string, maxAge?: number): void {
  // hono's setCookie URL-encodes the value, as Better Auth does ("token.signature" → "token.sig%2B...%3D").
  setCookie(c, name, value, cookieOptions(ctx, maxAge));
}

/** The session token from a verified session_token cookie, or null (missing or forged). */
export function readSessionToken(c: Context, ctx: AuthContext): string | null {
  // Any accepted secret (AUTH_SECRET_PREVIOUS too): the token is checked against the database anyway.
  return verifiedCookie(c, ctx, cookieNames(ctx).sessionToken);
}

export function hasDontRememberCookie(c: Context, ctx: AuthContext): boolean {
  return verifiedCookie(c, ctx, cookieNames(ctx).dontRemember) === "true";
}

export interface SetSessionCookieOptions {
  dontRemember?: boolean;
}

/** Write session_token (and dont_remember, session_data) for a session. */
export function setSessionCookies(
  c: Context,
  ctx: AuthContext,
  data: SessionWithUser,
  options: SetSessionCookieOptions = {},
): void {
  const names = cookieNames(ctx);
  const remaining = Math.max(0, Math.ceil((Number(data.session.expiresAt) - ctx.now()) / 1000));
  const maxAge = options.dontRemember ? undefined : Math.min(ctx.config.session.expiresIn, remaining);
  write(c, ctx, names.sessionToken, signValue(ctx.secret, data.session.token), maxAge);
  if (options.dontRemember) write(c, ctx, names.dontRemember, signValue(ctx.secret, "true"));
  setSessionDataCookie(c, ctx, data);
}

interface CachedSession extends WireSessionWithUser {
  expiresAt: number;
  signature: string;
}

/** Cache the session in a signed cookie; skipped (not fatal) when it would exceed the 4093-character limit. */
export function setSessionDataCookie(c: Context, ctx: AuthContext, data: SessionWithUser): void {
  const cache = ctx.config.session.cookieCache;
  if (!cache.enabled) return;
  const value = sessionDataValue(ctx, data, () => {
    const payload = sessionAnswer(ctx, data);
    const expiresAt = ctx.now() + cache.maxAge * 1000;
    const signature = hmacSha256Base64Url(ctx.secret, JSON.stringify({ ...payload, expiresAt }));
    return Buffer.from(JSON.stringify({ ...payload, expiresAt, signature } satisfies CachedSession)).toString(
      "base64url",
    );
  });
  if (value.length > SESSION_DATA_LIMIT) {
    ctx.logger.warn("session too large for the cookie cache; not cached", { size: value.length });
    return;
  }
  write(c, ctx, cookieNames(ctx).sessionData, value, cache.maxAge);
}

/** The cached {session, user} from a valid, unexpired session_data cookie matching `token`, else null. */
export function readSessionDataCookie(c: Context, ctx: AuthContext, token: string): WireSessionWithUser | null {
  const raw = requestCookie(c, cookieNames(ctx).sessionData);
  if (!raw) return null;
  const copy = checkDataCookie(ctx, raw, () => checkedDataCookie(ctx, raw));
  if (!copy) return null;
  // A copy without an expiry is refused: it would outlive the cache's max age (signed by us or not).
  const now = ctx.now();
  if (!(copy.expiresAt > now) || copy.answer.session.token !== token || copy.sessionExpiresAt <= now) return null;
  return copy.answer;
}

/** A session_data value whose signature is good, parsed; null for anything else. */
function checkedDataCookie(ctx: AuthContext, raw: string): CheckedDataCookie | null {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as CachedSession;
    // The current secret only: this signature is the whole proof (no database read behind it), and a previous
    // secret may be a leaked one. A copy signed before a rotation is skipped; the session is read instead.
    const expected = hmacSha256Base64Url(
      ctx.secret,
      JSON.stringify({ session: parsed.session, user: parsed.user, expiresAt: parsed.expiresAt }),
    );
    if (!constantTimeEqual(expected, String(parsed.signature))) return null;
    return {
      answer: keepJSON({ session: parsed.session, user: parsed.user }),
      expiresAt: typeof parsed.expiresAt === "number" ? parsed.expiresAt : Number.NaN,
      sessionExpiresAt: Date.parse(String(parsed.session.expiresAt)),
    };
  } catch {
    return null;
  }
}

/** A cookie of authd's own beside the session cookies (same prefix and attributes), e.g. "admin_session". */
export function authCookieName(ctx: AuthContext, suffix: string): string {
  return `${isSecureContext(ctx) ? "__Secure-" : ""}${ctx.config.cookies.prefix}.${suffix}`;
}

/** Write a signed cookie; without maxAge it lasts for the browser session. */
export function setSignedCookie(c: Context, ctx: AuthContext, name: string, value: string, maxAge?: number): void {
  write(c, ctx, name, signValue(ctx.secret, value), maxAge);
}

/**
 * The value of a signed cookie, or null when missing or forged. Any accepted secret passes: every signed cookie
 * holds a value that is itself checked against the database (a challenge id, a session token, a state's hash).
 */
export function readSignedCookie(c: Context, ctx: AuthContext, name: string): string | null {
  return verifiedCookie(c, ctx, name);
}

export function clearCookie(c: Context, ctx: AuthContext, name: string): void {
  write(c, ctx, name, "", 0);
}

/** The Set-Cookie value that clears a cookie, for an error answer (which carries no cookies set before it). */
export function clearingCookieHeader(ctx: AuthContext, name: string): string {
  return generateCookie(name, "", cookieOptions(ctx, 0));
}

/** The two-factor cookies: the sign-in's challenge and the trusted-browser mark. */
export function twoFactorCookieNames(ctx: AuthContext): { challenge: string; trustDevice: string } {
  return { challenge: authCookieName(ctx, "two_factor"), trustDevice: authCookieName(ctx, "trust_device") };
}

/** A sign-in that stops at the second factor: no session cookies, the dont_remember choice kept for later. */
export function setChallengeCookies(c: Context, ctx: AuthContext, challengeId: string, dontRemember: boolean): void {
  const names = cookieNames(ctx);
  write(c, ctx, names.sessionToken, "", 0);
  write(c, ctx, names.sessionData, "", 0);
  if (dontRemember) write(c, ctx, names.dontRemember, signValue(ctx.secret, "true"));
  setSignedCookie(c, ctx, twoFactorCookieNames(ctx).challenge, challengeId, ctx.config.twoFactor.challengeExpiresIn);
}

export function clearSessionCookies(c: Context, ctx: AuthContext): void {
  const names = cookieNames(ctx);
  for (const name of [names.sessionToken, names.sessionData, names.dontRemember]) write(c, ctx, name, "", 0);
}
