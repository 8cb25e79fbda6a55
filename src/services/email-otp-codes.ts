import type { AuthContext } from "../context.ts";
import { hmacSha256Base64Url, matchesKeyedHash } from "../crypto/hmac.ts";
import { generateRandomString } from "../crypto/random.ts";
import { seal, unsealWithAny } from "../crypto/sealed.ts";
import {
  consumeVerificationIfUnchanged,
  deleteExpiredVerifications,
  deleteVerificationById,
  deleteVerificationsOfIdentifier,
  findVerification,
  insertVerification,
  updateVerificationIfUnchanged,
} from "../db/repositories/verifications.ts";
import type { VerificationRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { inTransaction } from "../platform/transaction.ts";

// One-time codes by mail: one live code per (type, email), in a verification record whose identifier is
// email-otp:{type}:{email in lower case} and whose value is "{wrong tries}:{keyed hash}:{sealed code}".
//
// - At rest the code is a keyed hash (HMAC with the daemon's secret, bound to the identifier): a 6-digit
//   code under a plain hash is read back by trying the million codes, under a keyed one not without the
//   secret. The sealed copy (AES-GCM under the same secret) serves only the server call that reads a live
//   code back; with the secret anyone could try the million codes anyway, so it exposes nothing more.
// - Checks change the record only by compare-and-set on its whole value: a wrong try is counted only if
//   nobody changed the record since it was read, and the right code wins only by deleting the record it
//   read. Requests racing on one code are thereby put in some order, and the spec's sequence holds for
//   every order: at most `allowedAttempts` wrong tries are counted, the next try deletes the code, and
//   exactly one request can use the right code.

export const OTP_TYPES = ["sign-in", "email-verification", "forget-password"] as const;
export type OtpType = (typeof OTP_TYPES)[number];

const DIGITS = "0123456789";
const SEAL_PURPOSE = "email-otp";
/** A check retries when another request changed the record meanwhile; each retry means one of them won. */
const MAX_ROUNDS = 64;

const PREFIX = "email-otp:";

function otpIdentifier(type: OtpType, email: string): string {
  return `${PREFIX}${type}:${email.toLowerCase()}`;
}

function codeHash(ctx: AuthContext, identifier: string, code: string): string {
  return hmacSha256Base64Url(ctx.secret, `${identifier}\0${code}`);
}

interface StoredCode {
  wrongTries: number;
  hash: string;
  sealed: string;
}

const encode = (stored: StoredCode): string => `${stored.wrongTries}:${stored.hash}:${stored.sealed}`;

function decode(value: string): StoredCode | null {
  const [tries, hash, sealed] = value.split(":");
  const wrongTries = Number(tries);
  if (!Number.isInteger(wrongTries) || !hash || !sealed) return null;
  return { wrongTries, hash, sealed };
}

/** Store a new code for (type, email), replacing the previous one, and answer it. */
export async function createCode(ctx: AuthContext, email: string, type: OtpType): Promise<string> {
  const { otpLength, expiresIn } = ctx.config.emailOTP;
  const code = generateRandomString(otpLength, DIGITS);
  const identifier = otpIdentifier(type, email);
  const value = encode({
    wrongTries: 0,
    hash: codeHash(ctx, identifier, code),
    sealed: seal(ctx.secret, SEAL_PURPOSE, code),
  });
  const now = ctx.now();
  await inTransaction(ctx.db, async (trx) => {
    await deleteVerificationsOfIdentifier(trx, identifier);
    await insertVerification(trx, identifier, value, now + expiresIn * 1000, now);
  });
  return code;
}

/** The live code of (type, email), for the server call that reads it back; null when none is usable. */
export async function readLiveCode(ctx: AuthContext, email: string, type: OtpType): Promise<string | null> {
  const row = await findVerification(ctx.db, otpIdentifier(type, email));
  if (!row || Number(row.expiresAt) <= ctx.now()) return null;
  const stored = decode(row.value);
  if (!stored || stored.wrongTries >= ctx.config.emailOTP.allowedAttempts) return null;
  return unsealWithAny(ctx.acceptedSecrets, SEAL_PURPOSE, stored.sealed)?.plaintext ?? null;
}

/** One round of a check: "used" (the code is ours), or "changed" (someone else changed the record first). */
async function checkRound(ctx: AuthContext, row: VerificationRow, code: string): Promise<"used" | "changed"> {
  if (Number(row.expiresAt) <= ctx.now()) {
    await deleteVerificationById(ctx.db, row.id);
    throw new AuthError("OTP_EXPIRED");
  }
  const stored = decode(row.value);
  if (!stored || stored.wrongTries >= ctx.config.emailOTP.allowedAttempts) {
    await deleteVerificationById(ctx.db, row.id);
    throw new AuthError(stored ? "TOO_MANY_ATTEMPTS" : "INVALID_OTP");
  }
  // Compare in constant time: the stored hash is a secret's.
  if (matchesKeyedHash(ctx.acceptedSecrets, `${row.identifier}\0${code}`, stored.hash)) {
    return (await consumeVerificationIfUnchanged(ctx.db, row.id, row.value)) ? "used" : "changed";
  }
  const counted = encode({ ...stored, wrongTries: stored.wrongTries + 1 });
  if (await updateVerificationIfUnchanged(ctx.db, row.id, row.value, counted, ctx.now()))
    throw new AuthError("INVALID_OTP");
  return "changed";
}

/**
 * Use the code of (type, email), in the spec's order: no code INVALID_OTP; expired OTP_EXPIRED (deleted);
 * `allowedAttempts` wrong tries already TOO_MANY_ATTEMPTS (deleted, even for the right code); wrong
 * INVALID_OTP (counted); right: deleted, and this call returns.
 */
export async function redeemCode(ctx: AuthContext, email: string, type: OtpType, code: string): Promise<void> {
  const identifier = otpIdentifier(type, email);
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const row = await findVerification(ctx.db, identifier);
      if (!row) throw new AuthError("INVALID_OTP");
      if ((await checkRound(ctx, row, code)) === "used") return;
    }
    throw new AuthError("INVALID_OTP");
  } finally {
    // Codes never used would stay forever: each check, once answered, sweeps the expired ones.
    ctx.background(deleteExpiredVerifications(ctx.db, PREFIX, ctx.now()));
  }
}
