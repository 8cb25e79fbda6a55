import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { AuthError, type ErrorKey } from "../errors.ts";
import { type ApiKeyRefusal, verifyApiKey } from "../services/api-key-verification.ts";
import type { SignInFailureReason } from "../services/security-events.ts";
import {
  findSession,
  hashSessionToken,
  isRefreshDue,
  type LiveSession,
  refreshSession,
  type SessionWithUser,
} from "../services/sessions.ts";
import { findUserById } from "../services/users.ts";
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

// Who the caller is: the session cookie, or (when the feature is on) an API key header standing in for a
// session of the key's owner.

export interface ResolvedSession extends SessionWithUser {
  /** How the caller proved who they are. */
  source: "cookie" | "api-key";
}

export interface ResolveSessionOptions {
  disableRefresh?: boolean;
  /** Rewrite the cached session cookie even when the session is not refreshed (get-session keeps it warm). */
  renewCacheCookie?: boolean;
}

/**
 * The caller's session from the session cookie, refreshed (and its cookie rewritten) once it is older
 * than the update age; null when there is none. A cookie naming a session that no longer exists is cleared.
 */
export async function resolveSession(
  c: Context,
  ctx: AuthContext,
  options: ResolveSessionOptions = {},
): Promise<ResolvedSession | null> {
  const token = readSessionToken(c, ctx);
  if (!token) return resolveApiKeySession(c, ctx);
  const found = await findSession(ctx, token);
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
    return { ...refreshed, source: "cookie" };
  }
  if (options.renewCacheCookie) setSessionDataCookie(c, ctx, found);
  return { ...found, source: "cookie" };
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
    recordSignInFailure(c, ctx, attempt, refusal.reason);
    const details = result.tryAgainIn === undefined ? undefined : { tryAgainIn: result.tryAgainIn };
    throw new AuthError(refusal.key, { details });
  }
  const apiKey = result.row;
  const user = await findUserById(ctx, apiKey.userId);
  if (!user) {
    recordSignInFailure(c, ctx, attempt, "failed", apiKey.userId);
    throw new AuthError("INVALID_USER_ID_FROM_API_KEY");
  }
  recordSignIn(c, ctx, { ...attempt, keyId: apiKey.id }, user.id);
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
