import type { AuthContext } from "../context.ts";
import { hmacSha256Base64Url, matchesKeyedHash } from "../crypto/hmac.ts";
import { generateRandomString } from "../crypto/random.ts";
import { seal, unsealWithAny } from "../crypto/sealed.ts";
import {
  deleteExpiredVerifications,
  deleteVerificationById,
  deleteVerificationIf,
  deleteVerificationsOfIdentifier,
  findVerification,
  insertVerification,
  updateVerificationIfUnchanged,
} from "../db/repositories/verifications.ts";
import type { VerificationRow } from "../db/schema.ts";
import { AuthError, type ErrorKey } from "../errors.ts";
import { inTransaction } from "../platform/transaction.ts";

// Codes sent by mail (email OTP, the second factor's mailed code): one live code per identifier, in a
// verification record whose value is "{wrong tries}:{keyed hash}" (and ":{sealed code}" for a kind the
// server may read back). Each feature brings its own rules (length, lifetime, tries, errors) as a kind.
//
// - At rest the code is a keyed hash (HMAC with the daemon's secret, bound to the identifier): a 6-digit
//   code under a plain hash is read back by trying the million codes, under a keyed one not without the
//   secret. A sealed copy (AES-GCM under the same secret) exposes nothing more: with the secret anyone
//   could try the million codes anyway.
// - Checks change the record only by compare-and-set on its whole value: a wrong try is counted only if
//   nobody changed the record since it was read, and the right code wins only by deleting the record it
//   read. Requests racing on one code are thereby put in some order, and the sequence holds for every
//   order: at most `maxWrongTries` wrong tries are counted, the next try deletes the code, and exactly one
//   request can use the right code.

/** One feature's mailed codes. */
export interface CodeKind {
  /** How every identifier of this kind starts. */
  prefix: string;
  /** Digits in a code. */
  length: number;
  expiresInSeconds: number;
  /** Wrong tries a code survives; the try after them deletes it, right or wrong. */
  maxWrongTries: number;
  /** Keep the code sealed beside its hash under this purpose, for a server call that reads it back. */
  sealPurpose?: string;
  /** Delete the kind's expired records once a check is answered (codes never tried would stay forever). */
  sweepExpired: boolean;
}

/**
 * A kind's answers to a check: no usable code, an expired one, tries used up, a wrong one. Given to the
 * check alone, so that only the routes that check a code are said to answer with them.
 */
export interface CodeRefusals {
  missing: ErrorKey;
  expired: ErrorKey;
  tooManyTries: ErrorKey;
  wrong: ErrorKey;
}

const DIGITS = "0123456789";
/** A check retries when another request changed the record meanwhile; each retry means one of them won. */
const MAX_ROUNDS = 64;

interface StoredCode {
  wrongTries: number;
  hash: string;
  sealed?: string;
}

const hashedMessage = (identifier: string, code: string): string => `${identifier}\0${code}`;

function codeHash(ctx: AuthContext, identifier: string, code: string): string {
  return hmacSha256Base64Url(ctx.secret, hashedMessage(identifier, code));
}

function encode(stored: StoredCode): string {
  const fields = [stored.wrongTries, stored.hash];
  return (stored.sealed === undefined ? fields : [...fields, stored.sealed]).join(":");
}

function decode(kind: CodeKind, value: string): StoredCode | null {
  const [tries, hash, sealed] = value.split(":");
  const wrongTries = Number(tries);
  if (!Number.isInteger(wrongTries) || !hash) return null;
  if (kind.sealPurpose === undefined) return { wrongTries, hash };
  return sealed ? { wrongTries, hash, sealed } : null;
}

/** Store a new code under `key`, replacing the previous one, and answer it (to be mailed). */
export async function createCode(ctx: AuthContext, kind: CodeKind, key: string): Promise<string> {
  const code = generateRandomString(kind.length, DIGITS);
  const identifier = `${kind.prefix}${key}`;
  const sealed = kind.sealPurpose === undefined ? undefined : seal(ctx.secret, kind.sealPurpose, code);
  const value = encode({ wrongTries: 0, hash: codeHash(ctx, identifier, code), sealed });
  const now = ctx.now();
  await inTransaction(ctx.db, async (trx) => {
    await deleteVerificationsOfIdentifier(trx, identifier);
    await insertVerification(trx, identifier, value, now + kind.expiresInSeconds * 1000, now);
  });
  return code;
}

/** The live code under `key`, for a kind kept sealed; null when none is usable. */
export async function readLiveCode(ctx: AuthContext, kind: CodeKind, key: string): Promise<string | null> {
  const row = await findVerification(ctx.db, `${kind.prefix}${key}`);
  if (!row || Number(row.expiresAt) <= ctx.now() || kind.sealPurpose === undefined) return null;
  const stored = decode(kind, row.value);
  if (!stored?.sealed || stored.wrongTries >= kind.maxWrongTries) return null;
  // A code sealed before AUTH_SECRET was rotated still reads back (AUTH_SECRET_PREVIOUS).
  return unsealWithAny(ctx.acceptedSecrets, kind.sealPurpose, stored.sealed)?.plaintext ?? null;
}

/** One round of a check: "used" (the code is ours), or "changed" (someone else changed the record first). */
async function checkRound(
  ctx: AuthContext,
  kind: CodeKind,
  refusals: CodeRefusals,
  row: VerificationRow,
  code: string,
) {
  if (Number(row.expiresAt) <= ctx.now()) {
    await deleteVerificationById(ctx.db, row.id);
    throw new AuthError(refusals.expired);
  }
  const stored = decode(kind, row.value);
  if (!stored || stored.wrongTries >= kind.maxWrongTries) {
    await deleteVerificationById(ctx.db, row.id);
    throw new AuthError(stored ? refusals.tooManyTries : refusals.missing);
  }
  // Compare in constant time: the stored hash is a secret's. A code mailed before AUTH_SECRET was rotated
  // was hashed under a previous secret, and still counts.
  if (matchesKeyedHash(ctx.acceptedSecrets, hashedMessage(row.identifier, code), stored.hash)) {
    return (await deleteVerificationIf(ctx.db, row.id, row.value)) ? "used" : "changed";
  }
  const counted = encode({ ...stored, wrongTries: stored.wrongTries + 1 });
  if (await updateVerificationIfUnchanged(ctx.db, row.id, row.value, counted, ctx.now()))
    throw new AuthError(refusals.wrong);
  return "changed";
}

/**
 * Use the code under `key`, in this order: none (or unreadable) `missing`; expired `expired` (deleted);
 * `maxWrongTries` wrong tries already `tooManyTries` (deleted, even for the right code); wrong `wrong`
 * (counted); right: deleted, and this call returns.
 */
export async function redeemCode(
  ctx: AuthContext,
  kind: CodeKind,
  refusals: CodeRefusals,
  key: string,
  code: string,
): Promise<void> {
  const identifier = `${kind.prefix}${key}`;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const row = await findVerification(ctx.db, identifier);
      if (!row) throw new AuthError(refusals.missing);
      if ((await checkRound(ctx, kind, refusals, row, code)) === "used") return;
    }
    throw new AuthError(refusals.wrong);
  } finally {
    if (kind.sweepExpired) ctx.background(deleteExpiredVerifications(ctx.db, kind.prefix, ctx.now()));
  }
}
