import type { AuthContext } from "../../context.ts";
import * as codes from "../one-time-codes.ts";

// Email one-time codes: one live code per (type, email), under the identifier email-otp:{type}:{email in
// lower case}, kept sealed beside its keyed hash so the server call get-verification-otp can read a live
// code back. Storing, checking and counting are one-time-codes.ts's; the rules here are the spec's.

export const OTP_TYPES = ["sign-in", "email-verification", "forget-password"] as const;
export type OtpType = (typeof OTP_TYPES)[number];

function emailCodes(ctx: AuthContext): codes.CodeKind {
  const { otpLength, expiresIn, allowedAttempts } = ctx.config.emailOTP;
  return {
    prefix: "email-otp:",
    length: otpLength,
    expiresInSeconds: expiresIn,
    maxWrongTries: allowedAttempts,
    sealPurpose: "email-otp",
    sweepExpired: true,
  };
}

const REFUSALS: codes.CodeRefusals = {
  missing: "INVALID_OTP",
  expired: "OTP_EXPIRED",
  tooManyTries: "TOO_MANY_ATTEMPTS",
  wrong: "INVALID_OTP",
};

const keyOf = (type: OtpType, email: string): string => `${type}:${email.toLowerCase()}`;

/** Store a new code for (type, email), replacing the previous one, and answer it. */
export function createCode(ctx: AuthContext, email: string, type: OtpType): Promise<string> {
  return codes.createCode(ctx, emailCodes(ctx), keyOf(type, email));
}

/** The live code of (type, email), for the server call that reads it back; null when none is usable. */
export function readLiveCode(ctx: AuthContext, email: string, type: OtpType): Promise<string | null> {
  return codes.readLiveCode(ctx, emailCodes(ctx), keyOf(type, email));
}

/**
 * Use the code of (type, email), in the spec's order: no code INVALID_OTP; expired OTP_EXPIRED (deleted);
 * `allowedAttempts` wrong tries already TOO_MANY_ATTEMPTS (deleted, even for the right code); wrong
 * INVALID_OTP (counted); right: deleted, and this call returns.
 */
export function redeemCode(ctx: AuthContext, email: string, type: OtpType, code: string): Promise<void> {
  return codes.redeemCode(ctx, emailCodes(ctx), REFUSALS, keyOf(type, email), code);
}
