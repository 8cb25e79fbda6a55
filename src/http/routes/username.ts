import * as z from "zod";
import { findUserByUsername } from "../../db/repositories/users.ts";
import { AuthError } from "../../errors.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { assertValidUsername, toUsernameSignInUser } from "../../services/usernames.ts";
import { defineRoute } from "../route.ts";
import { checkCredentials, signInUser } from "./sign-in.ts";

export const signInUsername = defineRoute({
  method: "POST",
  path: "/sign-in/username",
  summary: "Sign in with username and password",
  description: "The username is matched lower-case. Every failure to prove the password answers the same 401.",
  tags: ["Username"],
  body: z.object({
    username: z.string(),
    password: z.string(),
    rememberMe: z.boolean().optional(),
    callbackURL: z.string().optional(),
  }),
  response: z.object({
    token: z.string(),
    user: z.object({
      id: z.string(),
      email: z.string(),
      emailVerified: z.boolean(),
      username: z.string().nullable(),
      name: z.string(),
      image: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  }),
  handler: async ({ c, ctx, body }) => {
    if (!body.username || !body.password) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
    assertValidUsername(ctx, body.username);
    const user = await findUserByUsername(ctx.db, body.username);
    // The password is checked before anything else about the user is revealed (verification state, bans).
    if (!(await checkCredentials(ctx, user, body.password)) || !user) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
    if (ctx.config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      await sendVerificationEmail(ctx, user, body.callbackURL);
      throw new AuthError("USERNAME_EMAIL_NOT_VERIFIED");
    }
    const session = await signInUser(c, ctx, user, body.rememberMe);
    return { token: session.token, user: toUsernameSignInUser(user) };
  },
});
