import * as z from "zod";
import { totpCode } from "../../crypto/totp.ts";
import {
  enableTwoFactor,
  getTotpURI,
  regenerateBackupCodes,
  viewBackupCodes,
} from "../../services/two-factor/enrollment.ts";
import { sendOtp, verifyBackupCode, verifyOtp, verifyTotp } from "../../services/two-factor/verification.ts";
import { StatusSchema } from "../../wire/common.ts";
import {
  BackupCodesSchema,
  TotpURISchema,
  TwoFactorEnrollmentSchema,
  TwoFactorVerificationSchema,
} from "../../wire/two-factor.ts";
import { freeText, singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { type CodeCheck, disableCallersSecondFactor, verificationContext, verifySecondFactor } from "../two-factor.ts";

// Better Auth's two-factor routes: enrolment (password required), the three kinds of code, in the
// signed-in context or the sign-in challenge's, and the server's two calls.

const tags = ["Two-factor"];
const PasswordBody = z.object({ password: z.string() });
const CodeBody = z.object({ code: singleLine(), trustDevice: z.boolean().optional() });

export const enableRoute = defineRoute({
  method: "POST",
  path: "/two-factor/enable",
  summary: "Start two-factor enrolment: a new TOTP secret and backup codes",
  description:
    "Two-factor turns on at the first verified code (verify-totp); until then nothing changes at sign-in. Needs a sign-in within account.freshAge (403 SESSION_NOT_FRESH).",
  tags,
  auth: "session",
  body: z.object({ password: z.string(), issuer: freeText().optional() }),
  response: TwoFactorEnrollmentSchema,
  handler: ({ c, ctx, body, session }) =>
    enableTwoFactor(ctx, session, body, requestSource(c, ctx, "user", session.user.id)),
});

export const getTotpURIRoute = defineRoute({
  method: "POST",
  path: "/two-factor/get-totp-uri",
  summary: "The otpauth URI of the enrolled secret",
  tags,
  auth: "session",
  body: PasswordBody,
  response: TotpURISchema,
  handler: ({ c, ctx, body, session }) =>
    getTotpURI(ctx, session.user, body.password, requestSource(c, ctx, "user", session.user.id)),
});

export const disableRoute = defineRoute({
  method: "POST",
  path: "/two-factor/disable",
  summary: "Turn two-factor off (secret, backup codes and trusted browsers are removed)",
  description: "Needs a sign-in within account.freshAge (403 SESSION_NOT_FRESH).",
  tags,
  auth: "session",
  body: PasswordBody,
  response: StatusSchema,
  handler: async ({ c, ctx, body, session }) => {
    await disableCallersSecondFactor(c, ctx, session, body.password);
    return { status: true };
  },
});

export const verifyTotpRoute = defineRoute({
  method: "POST",
  path: "/two-factor/verify-totp",
  startsSession: true,
  summary: "Check an authenticator code (completes a sign-in, or turns two-factor on)",
  tags,
  auth: "optional-session",
  body: CodeBody,
  response: TwoFactorVerificationSchema,
  handler: ({ c, ctx, body, session }) => {
    const check: CodeCheck = (context, request) => verifyTotp(ctx, context, body.code, request);
    return verifySecondFactor(c, ctx, session, check, body.trustDevice);
  },
});

export const sendOtpRoute = defineRoute({
  method: "POST",
  path: "/two-factor/send-otp",
  summary: "Mail a one-time code (two-factor must be on)",
  tags,
  auth: "optional-session",
  body: z.object({ trustDevice: z.boolean().optional() }).optional(),
  response: StatusSchema,
  handler: async ({ c, ctx, session }) => {
    await sendOtp(ctx, await verificationContext(c, ctx, session));
    return { status: true };
  },
});

export const verifyOtpRoute = defineRoute({
  method: "POST",
  path: "/two-factor/verify-otp",
  startsSession: true,
  summary: "Check a mailed code (5 tries per code)",
  tags,
  auth: "optional-session",
  body: CodeBody,
  response: TwoFactorVerificationSchema,
  handler: ({ c, ctx, body, session }) => {
    const check: CodeCheck = (context, request) => verifyOtp(ctx, context, body.code, request);
    return verifySecondFactor(c, ctx, session, check, body.trustDevice);
  },
});

export const verifyBackupCodeRoute = defineRoute({
  method: "POST",
  path: "/two-factor/verify-backup-code",
  startsSession: true,
  summary: "Use a backup code (each works once)",
  tags,
  auth: "optional-session",
  body: CodeBody.extend({ disableSession: z.boolean().optional() }),
  response: TwoFactorVerificationSchema,
  handler: ({ c, ctx, body, session }) => {
    const check: CodeCheck = (context, request) => verifyBackupCode(ctx, context, body, request);
    return verifySecondFactor(c, ctx, session, check, body.trustDevice);
  },
});

export const generateBackupCodesRoute = defineRoute({
  method: "POST",
  path: "/two-factor/generate-backup-codes",
  summary: "Replace the backup codes",
  description: "Needs a sign-in within account.freshAge (403 SESSION_NOT_FRESH).",
  tags,
  auth: "session",
  body: PasswordBody,
  response: BackupCodesSchema,
  handler: ({ c, ctx, body, session }) =>
    regenerateBackupCodes(ctx, session, body.password, requestSource(c, ctx, "user", session.user.id)),
});

export const viewBackupCodesRoute = defineRoute({
  method: "POST",
  path: "/two-factor/view-backup-codes",
  summary: "A user's remaining backup codes (server call)",
  description: "Server only (Authorization: Bearer <AUTH_SERVER_TOKEN>).",
  tags,
  serverOnly: true,
  body: z.object({ userId: z.union([singleLine().min(1), z.number().transform(String)]) }),
  response: BackupCodesSchema,
  handler: ({ ctx, body }) => viewBackupCodes(ctx, body.userId),
});

export const generateTotpRoute = defineRoute({
  method: "POST",
  path: "/totp/generate",
  summary: "The current TOTP code of a raw secret (server call)",
  description: "Server only (Authorization: Bearer <AUTH_SERVER_TOKEN>).",
  tags,
  serverOnly: true,
  body: z.object({ secret: singleLine().min(1) }),
  response: z.object({ code: z.string() }),
  handler: ({ ctx, body }) => ({ code: totpCode(body.secret, ctx.now()) }),
});

export const twoFactorRoutes = [
  enableRoute,
  getTotpURIRoute,
  disableRoute,
  verifyTotpRoute,
  sendOtpRoute,
  verifyOtpRoute,
  verifyBackupCodeRoute,
  generateBackupCodesRoute,
  viewBackupCodesRoute,
  generateTotpRoute,
];
