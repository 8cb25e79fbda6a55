import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { signInWithApiKey } from "../services/api-keys/session.ts";
import { findSession, isRefreshDue, refreshSession, type SessionWithUser } from "../services/sessions/sessions.ts";
import { readBearerSessionToken } from "./bearer.ts";
import { noteChosenLanguage } from "./chosen-language.ts";
import {
  clearSessionCookies,
  hasDontRememberCookie,
  readSessionToken,
  setSessionCookies,
  setSessionDataCookie,
} from "./cookies.ts";
import { noteUser } from "./middleware/request-log.ts";
import { noteImpersonation, requestOrigin } from "./security-log.ts";

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
  const impersonatedBy = found.session.impersonatedBy;
  noteChosenLanguage(c, found.user.language ?? null, Boolean(impersonatedBy));
  if (impersonatedBy) {
    const { user, session } = found;
    const note = { adminId: impersonatedBy, userId: user.id, userName: user.name, userEmail: user.email };
    noteImpersonation(c, { ...note, expiresAt: Number(session.expiresAt) });
  }
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

/**
 * Other ways than the session cookie to prove who the caller is: an API key header becomes a session
 * for the key's owner (signInWithApiKey: verified, counted and logged as a sign-in by API key). Returns null
 * when the request carries no key or the feature is off; a refused key throws.
 */
export async function resolveApiKeySession(c: Context, ctx: AuthContext): Promise<ResolvedSession | null> {
  const config = ctx.config.apiKey;
  if (!config.enabled || config.disableSessionForAPIKeys) return null;
  const key = readApiKeyHeader(c, ctx);
  if (key === null) return null;
  return { ...(await signInWithApiKey(ctx, key, requestOrigin(c, ctx))), source: "api-key" };
}
