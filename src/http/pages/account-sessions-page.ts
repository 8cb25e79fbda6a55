import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import {
  listOwnSessions,
  ownRevocationEvent,
  revokeOwnSession,
  revokeUserSessions,
} from "../../services/sessions/sessions.ts";
import { clearSessionCookies } from "../cookies.ts";
import { accountState, backToSection } from "./account-frame.ts";
import { type SectionPage, sectionForm, sectionPage, userSource } from "./account-section-forms.ts";
import { pageURL, seeOther } from "./respond.ts";

// The sessions section (/account/sessions): every live session of the user (as list-sessions answers
// them) with its device, address, start and last activity, this browser's marked; sign out one (by its
// handle, the user's own only), every other one, or all, through the services of revoke-session,
// revoke-other-sessions and revoke-sessions.

const sessionsPage: SectionPage = async (c, ctx, session, problem) => {
  const rows = await listOwnSessions(ctx, session.user.id);
  const current = (row: { id: string }) => (row.id === session.session.id ? 1 : 0);
  // This browser first, then the most recently active.
  const sessions = rows
    .sort((a, b) => current(b) - current(a) || Number(b.updatedAt) - Number(a.updatedAt))
    .map((row) => ({
      handle: row.tokenHash,
      current: current(row) === 1,
      userAgent: row.userAgent ?? "",
      ipAddress: row.ipAddress ?? "",
      createdAt: new Date(Number(row.createdAt)).toISOString(),
      updatedAt: new Date(Number(row.updatedAt)).toISOString(),
    }));
  return { ...accountState(c, ctx, session, problem), page: "account-sessions", sessions };
};

export const showAccountSessions = sectionPage("sessions", sessionsPage);

/** This browser's session ended: its cookies go, and it lands where a sign-out does. */
function signedOut(c: Context, ctx: AuthContext): Response {
  clearSessionCookies(c, ctx);
  return seeOther(c, pageURL(ctx, "/signed-out", null));
}

export const postRevokeSession = sectionForm("sessions", sessionsPage, async (c, ctx, session, fields) => {
  const handle = fields.session ?? "";
  if (!handle) return { code: "SESSION_NOT_FOUND" };
  const source = userSource(c, ctx, session);
  const { id: userId } = session.user;
  // Another user's handle is refused (401) and revokes nothing: revokeOwnSession checks the owner as it deletes.
  await revokeOwnSession(ctx, handle, userId, (revoked) =>
    ownRevocationEvent(userId, source, "session", 1, revoked.id),
  );
  if (handle === session.session.tokenHash) return signedOut(c, ctx);
  return backToSection(c, ctx, "sessions", "notice.account.sessionRevoked");
});

export const postRevokeOtherSessions = sectionForm("sessions", sessionsPage, async (c, ctx, session) => {
  const source = userSource(c, ctx, session);
  const { id: userId } = session.user;
  await revokeUserSessions(ctx, userId, session.session, (count) => ownRevocationEvent(userId, source, "user", count));
  return backToSection(c, ctx, "sessions", "notice.account.otherSessionsRevoked");
});

export const postRevokeAllSessions = sectionForm("sessions", sessionsPage, async (c, ctx, session) => {
  const source = userSource(c, ctx, session);
  const { id: userId } = session.user;
  await revokeUserSessions(ctx, userId, undefined, (count) => ownRevocationEvent(userId, source, "user", count));
  return signedOut(c, ctx);
});
