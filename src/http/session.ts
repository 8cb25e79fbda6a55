import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { findSession, isRefreshDue, refreshSession, type SessionWithUser } from "../services/sessions.ts";
import { resolveApiKeySession } from "./session-sources.ts";
import { clearSessionCookies, hasDontRememberCookie, readSessionToken, setSessionCookies, setSessionDataCookie } from "./cookies.ts";

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
export async function resolveSession(c: Context, ctx: AuthContext, options: ResolveSessionOptions = {}): Promise<ResolvedSession | null> {
  const token = readSessionToken(c, ctx);
  if (!token) return resolveApiKeySession(c, ctx);
  const found = await findSession(ctx, token);
  if (!found) {
    clearSessionCookies(c, ctx);
    return null;
  }
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
