import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { toUserWire } from "../../services/users.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { UserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { recordSignInFailure } from "../security-log.ts";
import { provePasswordSignIn, signInUser } from "../sign-in.ts";

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
  errors: [
    "BANNED_USER",
    "EMAIL_NOT_VERIFIED",
    "EMAIL_PASSWORD_DISABLED",
    "FAILED_TO_CREATE_SESSION",
    "INVALID_EMAIL",
    "INVALID_EMAIL_OR_PASSWORD",
    "TOO_MANY_REQUESTS",
  ],
  handler: async ({ c, ctx, body }) => {
    if (!ctx.config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    const email = requireValidEmail(body.email);
    const attempt = { method: "email" } as const;
    const user = await provePasswordSignIn(c, ctx, attempt, { email }, body.password);
    if (!user) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    if (ctx.config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      await recordSignInFailure(c, ctx, attempt, "email_not_verified", user.id);
      if (ctx.config.emailVerification.sendOnSignUp) await sendVerificationEmail(ctx, user, body.callbackURL);
      throw new AuthError("EMAIL_NOT_VERIFIED");
    }
    const signedIn = await signInUser(c, ctx, user, body.rememberMe, attempt);
    if (signedIn.kind === "two-factor") return { twoFactorRedirect: true as const };
    return {
      redirect: Boolean(body.callbackURL),
      token: signedIn.session.token,
      url: body.callbackURL,
      user: toUserWire(ctx, user),
    };
  },
});
