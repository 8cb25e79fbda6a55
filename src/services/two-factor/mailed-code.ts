import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url, matchesKeyedHash } from "../../crypto/hmac.ts";
import { generateRandomString } from "../../crypto/random.ts";
import {
  deleteVerificationById,
  deleteVerificationIf,
  deleteVerificationsOfIdentifier,
  findVerification,
  insertVerification,
  updateVerificationIfUnchanged,
} from "../../db/repositories/verifications.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { inTransaction } from "../../platform/transaction.ts";

// Two-factor codes by mail: 6 digits, kept as an HMAC (never in clear) with the count of wrong tries, in
// a verification record keyed by the challenge or by the session asking. Conditional writes keep the count
// exact and the code single-use under concurrency: every change names the value it replaces.

const PREFIX = "2fa-otp-";

function hashCode(ctx: AuthContext, code: string): string {
  return hmacSha256Base64Url(ctx.secret, `two-factor-otp:${code}`);
}

function encode(hash: string, tries: number): string {
  return `${hash}:${tries}`;
}

/** Replace the context's code with a new one and mail it to the user. */
export async function sendCode(ctx: AuthContext, key: string, user: UserRow): Promise<void> {
  const code = generateRandomString(6, "0123456789");
  const now = ctx.now();
  const identifier = `${PREFIX}${key}`;
  await inTransaction(ctx.db, async (trx) => {
    await deleteVerificationsOfIdentifier(trx, identifier);
    await insertVerification(
      trx,
      identifier,
      encode(hashCode(ctx, code), 0),
      now + ctx.config.twoFactor.otpExpiresIn * 1000,
      now,
    );
  });
  const minutes = Math.max(1, Math.round(ctx.config.twoFactor.otpExpiresIn / 60));
  ctx.sendMail({
    to: user.email,
    subject: `Your ${ctx.config.appName} two-factor code`,
    text: `Hello ${user.name},\n\nYour ${ctx.config.appName} two-factor sign-in code:\n\nCode: ${code}\n\nIt expires in ${minutes} minutes. If you did not try to sign in, change your password.\n`,
  });
}

/**
 * Check a mailed code. OTP_HAS_EXPIRED without a live code (an expired one is deleted),
 * TOO_MANY_CODE_ATTEMPTS once the tries are used up (the code is deleted), INVALID_CODE for a wrong one
 * (counted). A right code is used up here: only one of concurrent callers gets past.
 */
export async function redeemCode(ctx: AuthContext, key: string, code: string): Promise<void> {
  const identifier = `${PREFIX}${key}`;
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const record = await findVerification(ctx.db, identifier);
    if (!record) throw new AuthError("OTP_HAS_EXPIRED");
    if (Number(record.expiresAt) <= ctx.now()) {
      await deleteVerificationById(ctx.db, record.id);
      throw new AuthError("OTP_HAS_EXPIRED");
    }
    const separator = record.value.lastIndexOf(":");
    const hash = record.value.slice(0, separator);
    const tries = Number(record.value.slice(separator + 1)) || 0;
    if (tries >= ctx.config.twoFactor.otpMaxAttempts) {
      await deleteVerificationById(ctx.db, record.id);
      throw new AuthError("TOO_MANY_CODE_ATTEMPTS");
    }
    // Any accepted secret: a code mailed just before a rotation still counts.
    if (matchesKeyedHash(ctx.acceptedSecrets, `two-factor-otp:${code}`, hash)) {
      if (await deleteVerificationIf(ctx.db, record.id, record.value)) return;
      continue;
    }
    if (await updateVerificationIfUnchanged(ctx.db, record.id, record.value, encode(hash, tries + 1), ctx.now()))
      throw new AuthError("INVALID_CODE");
  }
  throw new AuthError("INVALID_CODE");
}
