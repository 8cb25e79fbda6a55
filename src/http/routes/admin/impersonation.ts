import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission, assertMayBeImpersonated, findUserOrThrow } from "../../../services/admin.ts";
import { findSession, revokeSession, toSessionWire } from "../../../services/sessions/sessions.ts";
import { startSession } from "../../../services/sign-in/start-session.ts";
import { toUserWire } from "../../../services/users.ts";
import { SessionWithUserSchema } from "../../../wire/session.ts";
import { clientAddress } from "../../client-address.ts";
import {
  authCookieName,
  clearCookie,
  cookieNames,
  hasDontRememberCookie,
  readSignedCookie,
  setSessionCookies,
  setSignedCookie,
} from "../../cookies.ts";
import { singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { requestSource } from "../../security-log.ts";
import { holdsSessionToken } from "../../session.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// Impersonation: the admin's own session token is parked in a signed admin_session cookie
// ("token:dontRemember") while a short-lived session marked impersonatedBy stands in for the target user.

const adminSessionCookie = (ctx: AuthContext) => authCookieName(ctx, "admin_session");

export const adminImpersonateUser = defineRoute({
  method: "POST",
  path: "/admin/impersonate-user",
  startsSession: true,
  summary: "Sign in as another user for a short while (admin)",
  description: "The admin's session is kept aside and restored by /admin/stop-impersonating.",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session",
  body: z.object({ userId: singleLine().min(1) }),
  response: SessionWithUserSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const current = session;
    // Parking an API-key "session" in a cookie would turn a header credential into a browser one.
    if (!holdsSessionToken(current)) throw new AuthError("UNAUTHORIZED");
    assertAdminPermission(ctx, actorFor(isServer, current.user), { user: ["impersonate"] });
    const target = await findUserOrThrow(ctx, body.userId);
    assertMayBeImpersonated(ctx, target);
    const impersonation = await startSession(ctx, target, {
      impersonatedBy: current.user.id,
      expiresIn: ctx.config.admin.impersonationSessionDuration,
      ipAddress: clientAddress(c, ctx),
      userAgent: c.req.header("user-agent") ?? "",
      event: (started) => ({
        type: "impersonation_started",
        outcome: "success",
        sessionId: started.id,
        userId: target.id,
        source: requestSource(c, ctx, "admin", current.user.id),
      }),
    });
    const adminDontRemember = hasDontRememberCookie(c, ctx);
    setSignedCookie(
      c,
      ctx,
      adminSessionCookie(ctx),
      `${current.session.token}:${adminDontRemember ? "true" : ""}`,
      ctx.config.session.expiresIn,
    );
    setSessionCookies(c, ctx, { session: impersonation, user: target }, { dontRemember: true });
    return { session: toSessionWire(ctx, impersonation), user: toUserWire(ctx, target) };
  },
});

async function restoreAdminSession(c: Context, ctx: AuthContext, impersonatedBy: string) {
  const parked = readSignedCookie(c, ctx, adminSessionCookie(ctx));
  if (!parked) throw new AuthError("FAILED_TO_FIND_ADMIN_SESSION");
  const [token = "", dontRemember] = parked.split(":");
  const admin = await findSession(ctx, token);
  // The parked session must still exist and belong to the admin who started this impersonation.
  if (!admin || admin.user.id !== impersonatedBy) throw new AuthError("FAILED_TO_FIND_ADMIN_SESSION");
  return { admin, dontRemember: dontRemember === "true" };
}

export const adminStopImpersonating = defineRoute({
  method: "POST",
  path: "/admin/stop-impersonating",
  startsSession: true,
  summary: "End an impersonation and return to the admin's own session",
  tags: ["Admin"],
  auth: "session",
  response: SessionWithUserSchema,
  handler: async ({ c, ctx, session }) => {
    const impersonatedBy = session.session.impersonatedBy;
    if (!impersonatedBy) throw new AuthError("NOT_IMPERSONATING");
    const { admin, dontRemember } = await restoreAdminSession(c, ctx, impersonatedBy);
    await revokeSession(ctx, session.session.token, (ended) => ({
      type: "impersonation_stopped",
      outcome: "success",
      sessionId: ended.id,
      userId: ended.userId,
      source: requestSource(c, ctx, "admin", impersonatedBy),
    }));
    setSessionCookies(c, ctx, admin, { dontRemember });
    if (!dontRemember) clearCookie(c, ctx, cookieNames(ctx).dontRemember);
    clearCookie(c, ctx, adminSessionCookie(ctx));
    return { session: toSessionWire(ctx, admin.session), user: toUserWire(ctx, admin.user) };
  },
});
