import type { AuthContext } from "../../context.ts";
import { ALPHANUMERIC, constantTimeEqual, generateId, generateRandomString } from "../../crypto/random.ts";
import { seal, unsealWithAny } from "../../crypto/sealed.ts";
import { base32Encode, totpKeyBytes } from "../../crypto/totp.ts";
import * as repository from "../../db/repositories/two-factor.ts";
import type { Db, TwoFactorRow } from "../../db/schema.ts";
import { inTransaction } from "../../platform/transaction.ts";

// The twoFactor row of a user, readable only through here: the TOTP secret and the backup codes are
// encrypted at rest with keys derived from the app secret (one per purpose). They are opened with any
// accepted secret (AUTH_SECRET_PREVIOUS during a rotation) and sealed again under the current one at start
// (services/secret-rotation.ts).

export const SECRET_PURPOSE = "two-factor-secret";
export const BACKUP_PURPOSE = "two-factor-backup-codes";
const SECRET_ALPHABET = `${ALPHANUMERIC}_-`;

export interface TwoFactorRecord {
  row: TwoFactorRow;
  /** The TOTP secret (its ASCII bytes are the HMAC key). */
  secret: string;
  backupCodes: string[];
}

/** A new TOTP secret: 32 random characters of [A-Za-z0-9_-]. */
export function generateTotpSecret(): string {
  return generateRandomString(32, SECRET_ALPHABET);
}

/** Backup codes: 10 random alphanumerics each, written xxxxx-xxxxx. */
export function generateBackupCodes(ctx: AuthContext): string[] {
  return Array.from({ length: ctx.config.twoFactor.backupCodeCount }, () => {
    const raw = generateRandomString(10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

export function encryptBackupCodes(ctx: AuthContext, codes: string[]): string {
  return seal(ctx.secret, BACKUP_PURPOSE, JSON.stringify(codes));
}

function decryptBackupCodes(ctx: AuthContext, stored: string): string[] {
  const parsed: unknown = JSON.parse(unsealWithAny(ctx.acceptedSecrets, BACKUP_PURPOSE, stored)?.plaintext ?? "[]");
  return Array.isArray(parsed) ? parsed.filter((code): code is string => typeof code === "string") : [];
}

/** The user's two-factor row, decrypted; null when there is none (or it was written under another secret). */
export async function readTwoFactor(
  ctx: AuthContext,
  userId: string,
  db: Db = ctx.db,
): Promise<TwoFactorRecord | null> {
  const row = await repository.findTwoFactor(db, userId);
  return row ? openTwoFactor(ctx, row) : null;
}

/** A stored two-factor row, decrypted; null (and an error logged) when no accepted secret opens it. */
export function openTwoFactor(ctx: AuthContext, row: TwoFactorRow): TwoFactorRecord | null {
  const secret = unsealWithAny(ctx.acceptedSecrets, SECRET_PURPOSE, row.secret)?.plaintext ?? null;
  if (secret === null) {
    ctx.logger.error(
      "two-factor secret cannot be decrypted (was AUTH_SECRET changed? put the old one in AUTH_SECRET_PREVIOUS)",
      { userId: row.userId },
    );
    return null;
  }
  return { row, secret, backupCodes: decryptBackupCodes(ctx, row.backupCodes) };
}

/** Store a secret and codes in `db` (a transaction of the caller's), replacing any earlier row. */
export function storeTwoFactor(
  ctx: AuthContext,
  db: Db,
  userId: string,
  secret: string,
  codes: string[],
): Promise<void> {
  return repository.replaceTwoFactor(db, {
    id: generateId(),
    userId,
    secret: seal(ctx.secret, SECRET_PURPOSE, secret),
    backupCodes: encryptBackupCodes(ctx, codes),
    lastUsedStep: null,
    createdAt: ctx.now(),
  });
}

/** Store a new secret and new codes, replacing any earlier row. */
export async function writeTwoFactor(ctx: AuthContext, userId: string, secret: string, codes: string[]): Promise<void> {
  await inTransaction(ctx.db, (trx) => storeTwoFactor(ctx, trx, userId, secret, codes));
}

/** The index of `code` in `codes`, comparing every entry in constant time; -1 when absent. */
export function findBackupCode(codes: string[], code: string): number {
  let found = -1;
  codes.forEach((candidate, index) => {
    if (constantTimeEqual(candidate, code) && found === -1) found = index;
  });
  return found;
}

/** The otpauth URI an authenticator app reads (label and issuer encoded as Better Auth writes them). */
export function totpURI(issuer: string, email: string, secret: string): string {
  const query = new URLSearchParams({ secret: base32Encode(totpKeyBytes(secret)), issuer });
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(email)}?${query.toString()}&digits=6&period=30`;
}
