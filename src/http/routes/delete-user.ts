import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { deleteOwnAccount, deleteUserWithToken } from "../../services/account-deletion.ts";
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
    // An API key is not a sign-in: it may not stand in for a password or a fresh session.
    const proof = { ...body, session: holdsSessionToken(session) ? session.session : null };
    const source = requestSource(c, ctx, "user", user.id);
    if ((await deleteOwnAccount(ctx, user, proof, body.callbackURL, source)) === "mailed")
      return { success: true, message: "Verification email sent" };
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
