import * as z from "zod";
import { assertOtpEmail } from "../../services/email-address.ts";
import {
  createCodeForServer,
  OTP_TYPES,
  readLiveCode,
  resetPasswordWithCode,
  sendCode,
} from "../../services/email-otp/email-otp.ts";
import { emailCodeStrategy, verifyEmailCodeAndSignIn } from "../../services/email-otp/sign-in.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { toPublicUserWire } from "../../services/users.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestOrigin } from "../security-log.ts";
import { rememberedChoice, setSignInCookies, signInRequestOf } from "../sign-in.ts";

const tags = ["Email OTP"];
const SuccessSchema = z.object({ success: z.boolean() });
const EmailAndType = z.object({ email: singleLine(), type: z.enum(OTP_TYPES) });
const EmailAndCode = z.object({ email: singleLine(), otp: singleLine() });
const SignedInSchema = z.object({ token: z.string(), user: PublicUserSchema });

export const sendVerificationOtpRoute = defineRoute({
  method: "POST",
  path: "/email-otp/send-verification-otp",
  summary: "Mail a one-time code",
  description:
    "Always {success: true} for a well-formed address; the code is mailed in the background (no forget-password code for unknown addresses).",
  tags,
  body: EmailAndType,
  response: SuccessSchema,
  handler: ({ ctx, body }) => {
    assertOtpEmail(body.email);
    sendCode(ctx, body.email, body.type);
    return { success: true };
  },
});

export const signInEmailOtpRoute = defineRoute({
  method: "POST",
  path: "/sign-in/email-otp",
  startsSession: true,
  summary: "Sign in (or up) with a mailed code",
  description: "A wrong code is counted; after the allowed wrong tries the code is deleted (403 TOO_MANY_ATTEMPTS).",
  tags,
  body: EmailAndCode,
  response: z.union([SignedInSchema, TwoFactorRedirectSchema]),
  handler: async ({ c, ctx, body }) => {
    const request = signInRequestOf(c, ctx, undefined);
    const signedIn = await signIn(ctx, emailCodeStrategy, body, request);
    setSignInCookies(c, ctx, signedIn, request);
    if (signedIn.kind === "challenge") return { twoFactorRedirect: true as const };
    return { token: signedIn.session.token, user: toPublicUserWire(signedIn.user) };
  },
});

export const verifyEmailOtpRoute = defineRoute({
  method: "POST",
  path: "/email-otp/verify-email",
  summary: "Verify an address with a mailed code",
  description: "Answers {status, token, user}; token is a new session's only with autoSignInAfterVerification.",
  tags,
  body: EmailAndCode,
  response: z.object({ status: z.boolean(), token: z.string().nullable(), user: PublicUserSchema }),
  handler: async ({ c, ctx, body }) => {
    assertOtpEmail(body.email);
    const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
    const { user, signedIn } = await verifyEmailCodeAndSignIn(ctx, body, request);
    // With two-factor on, the challenge cookie is set and no session starts: token stays null.
    if (signedIn) setSignInCookies(c, ctx, { ...signedIn, user }, request);
    const token = signedIn?.kind === "session" ? signedIn.session.token : null;
    return { status: true, token, user: toPublicUserWire(user) };
  },
});

export const forgetPasswordEmailOtpRoute = defineRoute({
  method: "POST",
  path: "/forget-password/email-otp",
  summary: "Mail a password-reset code",
  description: "Always {success: true}; a code is mailed only when the address belongs to a user.",
  tags,
  body: z.object({ email: singleLine() }),
  response: SuccessSchema,
  handler: ({ ctx, body }) => {
    sendCode(ctx, body.email, "forget-password");
    return { success: true };
  },
});

export const resetPasswordEmailOtpRoute = defineRoute({
  method: "POST",
  path: "/email-otp/reset-password",
  summary: "Set a new password with a mailed code",
  description: "The password length is checked before the code is used; other sessions are kept unless configured.",
  tags,
  body: z.object({ email: singleLine(), otp: singleLine(), password: z.string() }),
  response: SuccessSchema,
  handler: async ({ c, ctx, body }) => {
    await resetPasswordWithCode(ctx, body.email, body.otp, body.password, requestOrigin(c, ctx));
    return { success: true };
  },
});

export const createVerificationOtpRoute = defineRoute({
  method: "POST",
  path: "/email-otp/create-verification-otp",
  summary: "Make a code without mailing it (server call)",
  description: "Server only (Authorization: Bearer <AUTH_SERVER_TOKEN>); answers the code as a JSON string.",
  tags,
  serverOnly: true,
  body: EmailAndType,
  response: z.string(),
  handler: ({ ctx, body }) => createCodeForServer(ctx, body.email, body.type),
});

export const getVerificationOtpRoute = defineRoute({
  method: "POST",
  path: "/email-otp/get-verification-otp",
  summary: "Read the live code of an address (server call)",
  description: "Server only; {otp: null} when there is no live code.",
  tags,
  serverOnly: true,
  body: EmailAndType,
  response: z.object({ otp: z.string().nullable() }),
  handler: async ({ ctx, body }) => ({ otp: await readLiveCode(ctx, body.email, body.type) }),
});

export const emailOtpRoutes = [
  sendVerificationOtpRoute,
  signInEmailOtpRoute,
  verifyEmailOtpRoute,
  forgetPasswordEmailOtpRoute,
  resetPasswordEmailOtpRoute,
  createVerificationOtpRoute,
  getVerificationOtpRoute,
];
