import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { assertValidUsername, toUsernameSignInUser } from "../../services/usernames.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { UsernameSignInUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { recordSignInFailure } from "../security-log.ts";
import { provePasswordSignIn, signInUser } from "../sign-in.ts";

export const signInUsername = defineRoute({
  method: "POST",
  path: "/sign-in/username",
  startsSession: true,
  summary: "Sign in with username and password",
  description: "The username is matched lower-case. Every failure to prove the password answers the same 401.",
  tags: ["Username"],
  body: z.object({
    username: singleLine(),
    password: z.string(),
    rememberMe: z.boolean().optional(),
    callbackURL: singleLine().optional(),
  }),
  response: z.union([z.object({ token: z.string(), user: UsernameSignInUserSchema }), TwoFactorRedirectSchema]),
  errors: [
    "BANNED_USER",
    "FAILED_TO_CREATE_SESSION",
    "INVALID_USERNAME",
    "INVALID_USERNAME_OR_PASSWORD",
    "TOO_MANY_REQUESTS",
    "USERNAME_EMAIL_NOT_VERIFIED",
    "USERNAME_TOO_LONG",
    "USERNAME_TOO_SHORT",
  ],
  handler: async ({ c, ctx, body }) => {
    if (!body.username || !body.password) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
    assertValidUsername(ctx, body.username);
    // The password is checked before anything else about the user is revealed (verification state, bans).
    const attempt = { method: "username" } as const;
    const user = await provePasswordSignIn(c, ctx, attempt, { username: body.username }, body.password);
    if (!user) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
    if (ctx.config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      await recordSignInFailure(c, ctx, attempt, "email_not_verified", user.id);
      await sendVerificationEmail(ctx, user, body.callbackURL);
      throw new AuthError("USERNAME_EMAIL_NOT_VERIFIED");
    }
    const signedIn = await signInUser(c, ctx, user, body.rememberMe, attempt);
    if (signedIn.kind === "two-factor") return { twoFactorRedirect: true as const };
    return { token: signedIn.session.token, user: toUsernameSignInUser(user) };
  },
});
