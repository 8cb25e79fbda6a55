import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { usernamePasswordStrategy } from "../../services/sign-in/password.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { toUsernameSignInUser } from "../../services/usernames.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { UsernameSignInUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";

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
  handler: async ({ c, ctx, body }) => {
    const request = signInRequestOf(c, ctx, body.rememberMe);
    const signedIn = await signIn(ctx, usernamePasswordStrategy, body, request);
    if (signedIn.kind === "refused") throw new AuthError(signedIn.refusal);
    setSignInCookies(c, ctx, signedIn, request);
    if (signedIn.kind === "challenge") return { twoFactorRedirect: true as const };
    return { token: signedIn.session.token, user: toUsernameSignInUser(signedIn.user) };
  },
});
