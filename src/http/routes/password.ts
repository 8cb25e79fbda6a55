import * as z from "zod";
import { addFirstPassword, changeOwnPassword } from "../../services/password-change.ts";
import { isResetTokenValid, requestPasswordReset, resetPassword } from "../../services/password-reset.ts";
import { assertRecentSignIn } from "../../services/sessions/sessions.ts";
import { toPublicUserWire } from "../../services/users.ts";
import { StatusSchema } from "../../wire/common.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { hasDontRememberCookie } from "../cookies.ts";
import { singleLine } from "../fields.ts";
import { withQueryParam } from "../redirect-url.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { startUserSession } from "../sign-in.ts";

const tags = ["Password"];
const UNKNOWN_EMAIL_MESSAGE = "If this email exists in our system, check your email for the reset link";

const ResetRequestBody = z.object({ email: z.email(), redirectTo: singleLine().optional() });
const ResetRequestAnswer = z.object({ status: z.boolean(), message: z.string() });

// Both paths answer identically whether or not the address exists; the work happens in the background.
const resetRequestRoute = (path: string, summary: string) =>
  defineRoute({
    method: "POST",
    path,
    summary,
    description: `Always answers {status: true, message: "${UNKNOWN_EMAIL_MESSAGE}"}; a reset link is mailed when the address belongs to a user.`,
    tags,
    body: ResetRequestBody,
    response: ResetRequestAnswer,
    handler: ({ ctx, body }) => {
      requestPasswordReset(ctx, body.email, body.redirectTo);
      return { status: true, message: UNKNOWN_EMAIL_MESSAGE };
    },
  });

export const requestPasswordResetRoute = resetRequestRoute("/request-password-reset", "Mail a password-reset link");
export const forgetPasswordRoute = resetRequestRoute("/forget-password", "Mail a password-reset link (older name)");

export const resetPasswordLinkRoute = defineRoute({
  method: "GET",
  path: "/reset-password/:token",
  summary: "Follow a reset link",
  description:
    "Redirects to callbackURL with ?token=… when the token is live, otherwise with ?error=INVALID_TOKEN. Without callbackURL: 400, as Better Auth answers.",
  tags,
  query: z.object({ callbackURL: singleLine() }),
  handler: async ({ c, ctx, query, params }) => {
    const callbackURL = query.callbackURL;
    if (!callbackURL || !(await isResetTokenValid(ctx, params.token))) {
      const target = callbackURL ? new URL(callbackURL, ctx.apiURL).href : `${ctx.apiURL}/error`;
      return c.redirect(withQueryParam(target, "error", "INVALID_TOKEN"), 302);
    }
    return c.redirect(withQueryParam(new URL(callbackURL, ctx.apiURL).href, "token", params.token), 302);
  },
});

export const resetPasswordRoute = defineRoute({
  method: "POST",
  path: "/reset-password",
  summary: "Set a new password with a reset token",
  description: "The token (body or query) works once; the user's credential account is created when missing.",
  tags,
  body: z.object({ newPassword: z.string(), token: singleLine().optional() }),
  query: z.object({ token: singleLine().optional() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, query }) => {
    await resetPassword(ctx, body.token || query.token, body.newPassword, requestSource(c, ctx));
    return { status: true };
  },
});

export const changePasswordRoute = defineRoute({
  method: "POST",
  path: "/change-password",
  startsSession: true,
  summary: "Change the caller's password",
  description:
    "With revokeOtherSessions every session ends and a new one is started (its token is returned, else token is null). The session's sign-in must be at most account.freshAge old (SESSION_NOT_FRESH otherwise; a server call is exempt).",
  tags,
  auth: "session",
  body: z.object({ newPassword: z.string(), currentPassword: z.string(), revokeOtherSessions: z.boolean().optional() }),
  response: z.object({ token: z.string().nullable(), user: PublicUserSchema }),
  handler: async ({ c, ctx, body, session, isServer }) => {
    const { user } = session;
    if (!isServer) assertRecentSignIn(ctx, session.session);
    const revokeOtherSessions = Boolean(body.revokeOtherSessions);
    const change = { currentPassword: body.currentPassword, newPassword: body.newPassword, revokeOtherSessions };
    await changeOwnPassword(ctx, user, change, requestSource(c, ctx, "user", user.id));
    let token: string | null = null;
    if (revokeOtherSessions)
      token = (await startUserSession(c, ctx, user, hasDontRememberCookie(c, ctx) ? false : undefined)).token;
    return { token, user: toPublicUserWire(user) };
  },
});

export const setPasswordRoute = defineRoute({
  method: "POST",
  path: "/set-password",
  summary: "Give a user without a password one (server call)",
  description: "Server only (Authorization: Bearer <AUTH_SERVER_TOKEN>); refused when the user already has a password.",
  tags,
  serverOnly: true,
  body: z.object({ userId: singleLine().min(1), newPassword: z.string() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body }) => {
    await addFirstPassword(ctx, body.userId, body.newPassword, requestSource(c, ctx, "server"));
    return { status: true };
  },
});

export const passwordRoutes = [
  requestPasswordResetRoute,
  forgetPasswordRoute,
  resetPasswordLinkRoute,
  resetPasswordRoute,
  changePasswordRoute,
  setPasswordRoute,
];
