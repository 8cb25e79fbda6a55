import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { deleteUserWithToken, sendDeleteConfirmation } from "../../services/account-deletion.ts";
import { proveCurrentPassword } from "../../services/passwords.ts";
import { isSessionFresh } from "../../services/sessions/sessions.ts";
import { deleteUser } from "../../services/users.ts";
import { clearSessionCookies } from "../cookies.ts";
import { singleLine } from "../fields.ts";
import { browserLanding } from "../pages/mailed-links.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { holdsSessionToken } from "../session.ts";

// Registered only when deletion is enabled: a disabled feature answers 404 like an unknown route.

const tags = ["User"];
const DeleteAnswer = z.object({ success: z.boolean(), message: z.string() });

export const deleteUserRoute = defineRoute({
  method: "POST",
  path: "/delete-user",
  summary: "Delete the caller's user",
  description:
    "Proof is the password, a token from a confirmation mail, or a fresh session. With deleteUser.requireVerification a confirmation link is mailed instead of deleting, with or without a password (a wrong one is refused); the mailed token, used while signed in, deletes.",
  tags,
  auth: "session",
  body: z.object({
    callbackURL: singleLine().optional(),
    password: z.string().optional(),
    token: singleLine().optional(),
  }),
  response: DeleteAnswer,
  refusals: { INVALID_TOKEN: "INVALID_DELETE_TOKEN" },
  handler: async ({ c, ctx, body, session }) => {
    const { user } = session;
    let proven = false;
    if (body.password) {
      if (!(await proveCurrentPassword(ctx, user, body.password, requestSource(c, ctx, "user", user.id))))
        throw new AuthError("INVALID_PASSWORD");
      proven = true;
    }
    if (body.token) {
      await deleteUserWithToken(ctx, user, body.token, requestSource(c, ctx, "user", user.id));
      clearSessionCookies(c, ctx);
      return { success: true, message: "User deleted" };
    }
    // An API key is not a sign-in: it may not stand in for a password or a fresh session.
    const signedIn = holdsSessionToken(session);
    if (ctx.config.deleteUser.requireVerification) {
      if (!proven && !signedIn) throw new AuthError("USER_CANNOT_BE_DELETED");
      await sendDeleteConfirmation(ctx, user, body.callbackURL);
      return { success: true, message: "Verification email sent" };
    }
    if (!proven) {
      if (!signedIn) throw new AuthError("USER_CANNOT_BE_DELETED");
      if (!isSessionFresh(ctx, session.session)) throw new AuthError("SESSION_EXPIRED");
    }
    await deleteUser(ctx, user.id, requestSource(c, ctx, "user", user.id));
    clearSessionCookies(c, ctx);
    return { success: true, message: "User deleted" };
  },
});

export const deleteUserCallbackRoute = defineRoute({
  method: "GET",
  path: "/delete-user/callback",
  summary: "Follow a delete-account link",
  description:
    "Deletes the signed-in user when the token is theirs and live; redirects to callbackURL when given. With the pages on, a browser (Accept naming text/html) is sent (303) to the confirmation page instead, and nothing is consumed.",
  tags,
  auth: "optional-session",
  query: z.object({ token: singleLine(), callbackURL: singleLine().optional() }),
  response: DeleteAnswer,
  refusals: { INVALID_TOKEN: "INVALID_DELETE_TOKEN" },
  handler: async ({ c, ctx, query, session }) => {
    // A browser opening the mailed link gets the page's confirmation button: a mail scanner's GET deletes nothing.
    const landing = browserLanding(c, ctx, "/delete-account", query.token, query.callbackURL);
    if (landing) return landing;
    if (!session) throw new AuthError("NO_SESSION_FOR_DELETE_LINK");
    await deleteUserWithToken(ctx, session.user, query.token, requestSource(c, ctx, "user", session.user.id));
    clearSessionCookies(c, ctx);
    if (query.callbackURL) return c.redirect(query.callbackURL, 302);
    return { success: true, message: "User deleted" };
  },
});

export const deleteUserRoutes = [deleteUserRoute, deleteUserCallbackRoute];
