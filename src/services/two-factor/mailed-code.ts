import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import * as codes from "../one-time-codes.ts";

// Two-factor codes by mail: 6 digits, in a verification record keyed by the challenge or by the session
// asking, stored, checked and counted by one-time-codes.ts (a keyed hash, never in clear; conditional
// writes keep the count exact and the code single-use under concurrency).

function twoFactorCodes(ctx: AuthContext): codes.CodeKind {
  const { otpExpiresIn, otpMaxAttempts } = ctx.config.twoFactor;
  return {
    prefix: "2fa-otp-",
    length: 6,
    expiresInSeconds: otpExpiresIn,
    maxWrongTries: otpMaxAttempts,
    sweepExpired: false,
  };
}

const REFUSALS: codes.CodeRefusals = {
  missing: "OTP_HAS_EXPIRED",
  expired: "OTP_HAS_EXPIRED",
  tooManyTries: "TOO_MANY_CODE_ATTEMPTS",
  wrong: "INVALID_CODE",
};

/** Replace the context's code with a new one and mail it to the user. */
export async function sendCode(ctx: AuthContext, key: string, user: UserRow): Promise<void> {
  const code = await codes.createCode(ctx, twoFactorCodes(ctx), key);
  ctx.sendMail({
    kind: "two-factor-code",
    to: user.email,
    values: { name: user.name, email: user.email, code, codeExpiresIn: ctx.config.twoFactor.otpExpiresIn },
  });
}

/**
 * Check a mailed code. OTP_HAS_EXPIRED without a live code (an expired one is deleted),
 * TOO_MANY_CODE_ATTEMPTS once the tries are used up (the code is deleted), INVALID_CODE for a wrong one
 * (counted). A right code is used up here: only one of concurrent callers gets past.
 */
export function redeemCode(ctx: AuthContext, key: string, code: string): Promise<void> {
  return codes.redeemCode(ctx, twoFactorCodes(ctx), REFUSALS, key, code);
}
