import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { stopImpersonation } from "../services/impersonation.ts";
import type { SessionWithUser } from "../services/sessions/sessions.ts";
import {
  authCookieName,
  clearCookie,
  cookieNames,
  hasDontRememberCookie,
  readSignedCookie,
  setSessionCookies,
  setSignedCookie,
} from "./cookies.ts";
import { requestSource } from "./security-log.ts";

// The browser's side of an impersonation, for the API's /admin/impersonate-user and /admin/stop-impersonating
// and the console alike: the administrator's own session token is parked in a signed admin_session cookie
// ("token:dontRemember") while the impersonation session (services/impersonation.ts) holds the session
// cookies, and stopping brings the parked session back.

const adminSessionCookie = (ctx: AuthContext) => authCookieName(ctx, "admin_session");

/** Park the administrator's session (`admin`) and hand the browser the impersonation session. */
export function switchToImpersonation(
  c: Context,
  ctx: AuthContext,
  admin: SessionWithUser,
  impersonation: SessionWithUser,
): void {
  const adminDontRemember = hasDontRememberCookie(c, ctx);
  setSignedCookie(
    c,
    ctx,
    adminSessionCookie(ctx),
    `${admin.session.token}:${adminDontRemember ? "true" : ""}`,
    ctx.config.session.expiresIn,
  );
  setSessionCookies(c, ctx, impersonation, { dontRemember: true });
}

/**
 * End the impersonation `current` is and give the browser the administrator's parked session back (the
 * session cookies as they were, the parked cookie gone); answers that session.
 */
export async function switchBackFromImpersonation(
  c: Context,
  ctx: AuthContext,
  current: SessionWithUser,
): Promise<SessionWithUser> {
  const parked = readSignedCookie(c, ctx, adminSessionCookie(ctx));
  const [token = "", dontRemember] = (parked ?? "").split(":");
  const impersonatedBy = current.session.impersonatedBy ?? null;
  const source = requestSource(c, ctx, "admin", impersonatedBy);
  const admin = await stopImpersonation(ctx, current, token || null, source);
  const adminDontRemember = dontRemember === "true";
  setSessionCookies(c, ctx, admin, { dontRemember: adminDontRemember });
  if (!adminDontRemember) clearCookie(c, ctx, cookieNames(ctx).dontRemember);
  clearCookie(c, ctx, adminSessionCookie(ctx));
  return admin;
}
