import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { emailPasswordStrategy } from "../../services/sign-in/password.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { toUserWire } from "../../services/users.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { UserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";

export const signInEmail = defineRoute({
  method: "POST",
  path: "/sign-in/email",
  startsSession: true,
  summary: "Sign in with email and password",
  tags: ["Email"],
  body: z.object({
    email: singleLine(),
    password: z.string(),
    callbackURL: singleLine().optional(),
    rememberMe: z.boolean().optional(),
  }),
  response: z.union([
    z.object({ redirect: z.boolean(), token: z.string(), url: z.string().optional(), user: UserSchema }),
    TwoFactorRedirectSchema,
  ]),
  handler: async ({ c, ctx, body }) => {
    if (!ctx.config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    const email = requireValidEmail(body.email);
    const request = signInRequestOf(c, ctx, body.rememberMe);
    const input = { email, password: body.password, callbackURL: body.callbackURL };
    const signedIn = await signIn(ctx, emailPasswordStrategy, input, request);
    if (signedIn.kind === "refused") throw new AuthError(signedIn.refusal);
    setSignInCookies(c, ctx, signedIn, request);
    if (signedIn.kind === "challenge") return { twoFactorRedirect: true as const };
    return {
      redirect: Boolean(body.callbackURL),
      token: signedIn.session.token,
      url: body.callbackURL,
      user: toUserWire(ctx, signedIn.user),
    };
  },
});
