import type { AuthContext } from "../../context.ts";
import { ALPHANUMERIC, generateRandomString } from "../../crypto/random.ts";
import {
  consumeLiveVerification,
  deleteVerificationById,
  findVerification,
  insertVerification,
  updateVerificationIfUnchanged,
} from "../../db/repositories/verifications.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { findUserById } from "../users.ts";

// The two-factor challenge: after the password, the `two_factor` cookie names a verification record
// (`2fa-…`, holding the user id and the count of wrong codes) that lives challengeExpiresIn seconds. A
// verification uses it up (one statement, so of concurrent verifications one wins); too many wrong codes
// void it, so guessing codes means proving the password again, under the per-account throttle.

const CHALLENGE_ALPHABET = `${ALPHANUMERIC}_-`;
/** Wrong TOTP or backup codes one challenge may take. */
export const CHALLENGE_MAX_WRONG_CODES = 10;

export interface Challenge {
  id: string;
  user: UserRow;
}

function encode(userId: string, wrongCodes: number): string {
  return `${userId}!${wrongCodes}`;
}

function decode(value: string): { userId: string; wrongCodes: number } {
  const bang = value.lastIndexOf("!");
  return bang < 0
    ? { userId: value, wrongCodes: 0 }
    : { userId: value.slice(0, bang), wrongCodes: Number(value.slice(bang + 1)) || 0 };
}

/** Start a challenge for a user who proved their password; the id goes in the two_factor cookie. */
export async function createChallenge(ctx: AuthContext, userId: string): Promise<string> {
  const id = `2fa-${generateRandomString(20, CHALLENGE_ALPHABET)}`;
  const now = ctx.now();
  await insertVerification(ctx.db, id, encode(userId, 0), now + ctx.config.twoFactor.challengeExpiresIn * 1000, now);
  return id;
}

/** The live challenge a cookie names, or INVALID_TWO_FACTOR_COOKIE (unknown, used, expired, user gone). */
export async function readChallenge(ctx: AuthContext, id: string | null): Promise<Challenge> {
  const record = id?.startsWith("2fa-") ? await findVerification(ctx.db, id) : undefined;
  if (!record || Number(record.expiresAt) <= ctx.now()) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  const user = await findUserById(ctx, decode(record.value).userId);
  if (!user) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  return { id: record.identifier, user };
}

/** Use the challenge up; INVALID_TWO_FACTOR_COOKIE for every caller but the one that did. */
export async function consumeChallenge(ctx: AuthContext, challenge: Challenge): Promise<void> {
  const record = await consumeLiveVerification(ctx.db, challenge.id, ctx.now());
  if (!record || decode(record.value).userId !== challenge.user.id) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
}

/** Count a wrong code against the challenge; past the limit the challenge is deleted. */
export async function countWrongCode(ctx: AuthContext, challenge: Challenge): Promise<void> {
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const record = await findVerification(ctx.db, challenge.id);
    if (!record) return;
    const { userId, wrongCodes } = decode(record.value);
    if (wrongCodes + 1 >= CHALLENGE_MAX_WRONG_CODES) {
      await deleteVerificationById(ctx.db, record.id);
      return;
    }
    const counted = await updateVerificationIfUnchanged(
      ctx.db,
      record.id,
      record.value,
      encode(userId, wrongCodes + 1),
      ctx.now(),
    );
    if (counted) return;
  }
}
