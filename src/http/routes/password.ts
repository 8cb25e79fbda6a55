import * as z from "zod";
import { verifyPassword } from "../../crypto/password.ts";
import { findCredentialAccount } from "../../db/repositories/accounts.ts";
import { findUserById } from "../../db/repositories/users.ts";
import { AuthError } from "../../errors.ts";
import { isResetTokenValid, requestPasswordReset, resetPassword } from "../../services/password-reset.ts";
import { addPasswordIfMissing, setUserPassword } from "../../services/passwords.ts";
import { revokeUserSessions } from "../../services/sessions.ts";
import { assertPasswordLength } from "../../services/users.ts";
import { hasDontRememberCookie } from "../cookies.ts";
import { defineRoute } from "../route.ts";
import { publicUser, withQueryParam } from "./email-verification.ts";
import { StatusSchema, TokenUserSchema } from "./schemas.ts";
import { signInUser } from "./sign-in.ts";

const tags = ["Password"];
const UNKNOWN_EMAIL_MESSAGE = "If this email exists in our system, check your email for the reset link";

const ResetRequestBody = z.object({ email: z.email(), redirectTo: z.string().optional() });
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
  description: "Redirects to callbackURL with ?token=… when the token is live, otherwise with ?error=INVALID_TOKEN.",
  tags,
  query: z.object({ callbackURL: z.string().optional() }),
  handler: async ({ c, ctx, query, params }) => {
    const callbackURL = query.callbackURL;
    const valid = Boolean(callbackURL) && (await isResetTokenValid(ctx, params.token));
    if (!valid) {
      const target = callbackURL ? new URL(callbackURL, ctx.apiURL).href : `${ctx.apiURL}/error`;
      return c.redirect(withQueryParam(target, "error", "INVALID_TOKEN"), 302);
    }
    return c.redirect(withQueryParam(new URL(callbackURL!, ctx.apiURL).href, "token", params.token), 302);
  },
});

export const resetPasswordRoute = defineRoute({
  method: "POST",
  path: "/reset-password",
  summary: "Set a new password with a reset token",
  description: "The token (body or query) works once; the user's credential account is created when missing.",
  tags,
  body: z.object({ newPassword: z.string(), token: z.string().optional() }),
  query: z.object({ token: z.string().optional() }),
  response: StatusSchema,
  handler: async ({ ctx, body, query }) => {
    await resetPassword(ctx, body.token || query.token, body.newPassword);
    return { status: true };
  },
});

export const changePasswordRoute = defineRoute({
  method: "POST",
  path: "/change-password",
  summary: "Change the caller's password",
  description: "With revokeOtherSessions every session ends and a new one is started (its token is returned, else token is null).",
  tags,
  auth: "session",
  body: z.object({ newPassword: z.string(), currentPassword: z.string(), revokeOtherSessions: z.boolean().optional() }),
  response: TokenUserSchema,
  handler: async ({ c, ctx, body, session }) => {
    const { user } = session!;
    assertPasswordLength(ctx, body.newPassword);
    const account = await findCredentialAccount(ctx.db, user.id);
    if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
    if (!(await verifyPassword(account.password, body.currentPassword))) throw new AuthError("INVALID_PASSWORD");
    await setUserPassword(ctx, user.id, body.newPassword);
    let token: string | null = null;
    if (body.revokeOtherSessions) {
      await revokeUserSessions(ctx, user.id);
      token = (await signInUser(c, ctx, user, hasDontRememberCookie(c, ctx) ? false : undefined)).token;
    }
    return { token, user: publicUser(user) };
  },
});

export const setPasswordRoute = defineRoute({
  method: "POST",
  path: "/set-password",
  summary: "Give a user without a password one (server call)",
  description: "Server only (Authorization: Bearer <AUTH_SERVER_TOKEN>); refused when the user already has a password.",
  tags,
  serverOnly: true,
  body: z.object({ userId: z.string().min(1), newPassword: z.string() }),
  response: StatusSchema,
  handler: async ({ ctx, body }) => {
    assertPasswordLength(ctx, body.newPassword);
    const user = await findUserById(ctx.db, body.userId);
    if (!user) throw new AuthError("USER_NOT_FOUND");
    if (!(await addPasswordIfMissing(ctx, user.id, body.newPassword))) throw new AuthError("USER_ALREADY_HAS_PASSWORD");
    return { status: true };
  },
});

export const passwordRoutes = [requestPasswordResetRoute, forgetPasswordRoute, resetPasswordLinkRoute, resetPasswordRoute, changePasswordRoute, setPasswordRoute];
