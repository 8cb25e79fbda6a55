import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { AuthError, type ErrorKey } from "../errors.ts";
import { type ApiKeyRefusal, verifyApiKey } from "../services/api-keys/verification.ts";
import type { SignInFailureReason } from "../services/security-event-types.ts";
import {
  findSession,
  hashSessionToken,
  isRefreshDue,
  type LiveSession,
  refreshSession,
  type SessionWithUser,
} from "../services/sessions/sessions.ts";
import { findUserById } from "../services/users.ts";
import { readBearerSessionToken } from "./bearer.ts";
import { clientAddress } from "./client-address.ts";
import {
  clearSessionCookies,
  hasDontRememberCookie,
  readSessionToken,
  setSessionCookies,
  setSessionDataCookie,
} from "./cookies.ts";
import { noteUser } from "./middleware/request-log.ts";
import { recordSignIn, recordSignInFailure } from "./security-log.ts";

// Who the caller is: the session cookie, `Authorization: Bearer <session token>` (when the bearer feature
// is on), or an API key header standing in for a session of the key's owner (when that feature is on).

export interface ResolvedSession extends SessionWithUser {
  /** How the caller proved who they are. */
  source: "cookie" | "bearer" | "api-key";
}

/** Whether the caller holds the session itself (cookie or bearer token), not an API key standing in for it. */
export function holdsSessionToken(session: ResolvedSession): boolean {
  return session.source !== "api-key";
}

export interface ResolveSessionOptions {
  disableRefresh?: boolean;
  /** Rewrite the cached session cookie even when the session is not refreshed (get-session keeps it warm). */
  renewCacheCookie?: boolean;
}

interface PresentedToken {
  token: string;
  source: "cookie" | "bearer";
}

/** The session tokens a request presents, the bearer header's first (the explicit credential), then the cookie's. */
function presentedTokens(c: Context, ctx: AuthContext): PresentedToken[] {
  const presented: PresentedToken[] = [];
  const bearer = readBearerSessionToken(c, ctx);
  if (bearer) presented.push({ token: bearer, source: "bearer" });
  const cookie = readSessionToken(c, ctx);
  if (cookie && cookie !== bearer) presented.push({ token: cookie, source: "cookie" });
  return presented;
}

/** The session token the request authenticates with (bearer header, else cookie), or null. */
export function readPresentedSessionToken(c: Context, ctx: AuthContext): string | null {
  return presentedTokens(c, ctx)[0]?.token ?? null;
}

/** Every session token the request presents (bearer header, cookie). */
export function readPresentedSessionTokens(c: Context, ctx: AuthContext): string[] {
  return presentedTokens(c, ctx).map((presented) => presented.token);
}

/**
 * The caller's session from the bearer header or the session cookie, refreshed (and its cookie rewritten)
 * once it is older than the update age; null when there is none. A token naming a session that no longer
 * exists clears the session cookies.
 */
export async function resolveSession(
  c: Context,
  ctx: AuthContext,
  options: ResolveSessionOptions = {},
): Promise<ResolvedSession | null> {
  const presented = presentedTokens(c, ctx);
  if (presented.length === 0) return resolveApiKeySession(c, ctx);
  let found: SessionWithUser | null = null;
  let source: PresentedToken["source"] = "cookie";
  for (const candidate of presented) {
    found = await findSession(ctx, candidate.token);
    source = candidate.source;
    if (found) break;
  }
  if (!found) {
    clearSessionCookies(c, ctx);
    return null;
  }
  noteUser(c, found.user.id);
  const dontRemember = hasDontRememberCookie(c, ctx);
  if (!options.disableRefresh && !dontRemember && isRefreshDue(ctx, found.session)) {
    const session = await refreshSession(ctx, found.session);
    const refreshed = { session, user: found.user };
    setSessionCookies(c, ctx, refreshed);
    return { ...refreshed, source };
  }
  if (options.renewCacheCookie) setSessionDataCookie(c, ctx, found);
  return { ...found, source };
}

/** The API key a request presents in one of the configured headers, or null (an empty header is no key). */
export function readApiKeyHeader(c: Context, ctx: AuthContext): string | null {
  for (const header of ctx.config.apiKey.headers) {
    const value = c.req.header(header);
    if (value) return value;
  }
  return null;
}

// How each refusal answers on the header path (the verify route reports them as values instead), and
// the reason the security log gives.
const HEADER_REFUSALS: Record<ApiKeyRefusal, { key: ErrorKey; reason: SignInFailureReason }> = {
  INVALID_API_KEY: { key: "MALFORMED_API_KEY", reason: "invalid_api_key" },
  KEY_NOT_FOUND: { key: "INVALID_API_KEY", reason: "key_not_found" },
  KEY_DISABLED: { key: "KEY_DISABLED", reason: "key_disabled" },
  KEY_EXPIRED: { key: "KEY_EXPIRED", reason: "key_expired" },
  USER_IS_BANNED: { key: "USER_IS_BANNED", reason: "banned" },
  USAGE_EXCEEDED: { key: "USAGE_EXCEEDED", reason: "usage_exceeded" },
  RATE_LIMITED: { key: "RATE_LIMITED", reason: "rate_limited" },
  FAILED_TO_UPDATE_API_KEY: { key: "FAILED_TO_UPDATE_API_KEY", reason: "failed" },
};

/**
 * Other ways than the session cookie to prove who the caller is: an API key header becomes a session
 * for the key's owner (the use is counted like a verification). Returns null when the request carries
 * no key or the feature is off; a key that fails verification, or a banned owner, is refused. Both are
 * logged as sign-ins by API key, the key's id standing in for it (the key itself is never logged).
 */
export async function resolveApiKeySession(c: Context, ctx: AuthContext): Promise<ResolvedSession | null> {
  const config = ctx.config.apiKey;
  if (!config.enabled || config.disableSessionForAPIKeys) return null;
  const key = readApiKeyHeader(c, ctx);
  if (key === null) return null;
  const attempt = { method: "api-key" } as const;
  const result = await verifyApiKey(ctx, key);
  if (!result.valid) {
    const refusal = HEADER_REFUSALS[result.reason];
    await recordSignInFailure(c, ctx, attempt, refusal.reason);
    const details = result.tryAgainIn === undefined ? undefined : { tryAgainIn: result.tryAgainIn };
    throw new AuthError(refusal.key, { details });
  }
  const apiKey = result.row;
  const user = await findUserById(ctx, apiKey.userId);
  if (!user) {
    await recordSignInFailure(c, ctx, attempt, "failed", apiKey.userId);
    throw new AuthError("INVALID_USER_ID_FROM_API_KEY");
  }
  await recordSignIn(c, ctx, { ...attempt, keyId: apiKey.id }, user.id);
  const now = ctx.now();
  // Not a stored session: its token is the key (as Better Auth answers), and its hash names no session row.
  const session: LiveSession = {
    id: apiKey.id,
    token: key,
    tokenHash: hashSessionToken(key),
    userId: user.id,
    expiresAt: apiKey.expiresAt === null ? now + ctx.config.session.expiresIn * 1000 : Number(apiKey.expiresAt),
    ipAddress: clientAddress(c, ctx),
    userAgent: c.req.header("user-agent") ?? null,
    createdAt: now,
    updatedAt: now,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
  };
  return { session, user, source: "api-key" };
}
