import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { isResetTokenValid, requestPasswordReset, resetPassword } from "../../services/password-reset.ts";
import { addPasswordIfMissing, proveCurrentPassword, setPassword } from "../../services/passwords.ts";
import { revokeUserSessions } from "../../services/sessions/sessions.ts";
import { assertPasswordLength, findUserById, toPublicUserWire } from "../../services/users.ts";
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
    "With revokeOtherSessions every session ends and a new one is started (its token is returned, else token is null).",
  tags,
  auth: "session",
  body: z.object({ newPassword: z.string(), currentPassword: z.string(), revokeOtherSessions: z.boolean().optional() }),
  response: z.object({ token: z.string().nullable(), user: PublicUserSchema }),
  handler: async ({ c, ctx, body, session }) => {
    const { user } = session;
    assertPasswordLength(ctx, body.newPassword);
    const source = requestSource(c, ctx, "user", user.id);
    if (!(await proveCurrentPassword(ctx, user, body.currentPassword, source))) throw new AuthError("INVALID_PASSWORD");
    const revokedOtherSessions = Boolean(body.revokeOtherSessions);
    await setPassword(ctx, user.id, body.newPassword, {
      type: "password_changed",
      outcome: "success",
      method: "change-password",
      revokedOtherSessions,
      userId: user.id,
      source,
    });
    let token: string | null = null;
    if (revokedOtherSessions) {
      await revokeUserSessions(ctx, user.id);
      token = (await startUserSession(c, ctx, user, hasDontRememberCookie(c, ctx) ? false : undefined)).token;
    }
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
    assertPasswordLength(ctx, body.newPassword);
    const user = await findUserById(ctx, body.userId);
    if (!user) throw new AuthError("USER_NOT_FOUND");
    const event = { type: "password_changed", outcome: "success", method: "set-password" } as const;
    const source = requestSource(c, ctx, "server");
    if (!(await addPasswordIfMissing(ctx, user.id, body.newPassword, { ...event, userId: user.id, source })))
      throw new AuthError("USER_ALREADY_HAS_PASSWORD");
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
