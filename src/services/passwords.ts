import type { AuthContext } from "../context.ts";
import { isImportedHash } from "../crypto/imported-hash.ts";
import { generateId } from "../crypto/random.ts";
import { isUniqueViolationOn } from "../db/errors.ts";
import {
  findCredentialAccount,
  insertCredentialAccount,
  setPasswordIfMissing,
  updateAccount,
} from "../db/repositories/accounts.ts";
import type { AccountRow, Db, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { provePassword } from "./account-throttle.ts";
import { defineHook } from "./hooks.ts";
import { lastAtLeastTheFloor, verifyAccountPassword } from "./imported-passwords.ts";
import { type RequestOrigin, sourceOf } from "./request-origin.ts";
import { type EventSource, recordSecurityEvent, type SecurityEvent } from "./security-events.ts";

// The credential account holds a user's password hash. A user who signed up through a social provider
// has none until a reset or set-password creates it. Every credential account is created by
// storePasswordHash (sign-up and admin create-user included), so its columns are written in one place.

/** Which configured length bound a password misses (emailAndPassword.min/maxPasswordLength), if any. */
export type PasswordLengthProblem = { problem: "too-short"; min: number } | { problem: "too-long"; max: number };

/**
 * The one password policy: its length, bounded by the configuration. Every front end applies it (the API
 * refuses with the spec's errors, the CLI with an operator's line), so no door takes a password another
 * door would refuse.
 */
export function findPasswordLengthProblem(ctx: AuthContext, password: string): PasswordLengthProblem | null {
  const { minPasswordLength: min, maxPasswordLength: max } = ctx.config.emailAndPassword;
  if (password.length < min) return { problem: "too-short", min };
  if (password.length > max) return { problem: "too-long", max };
  return null;
}

/**
 * A user's existing password was replaced, inside the write's transaction (`db`): what a feature granted on
 * the strength of the old password goes (the browsers trusted to skip the second factor, as disabling it does).
 */
export const passwordChanged =
  defineHook<(ctx: AuthContext, userId: string, db: Db) => Promise<unknown>>("passwordChanged");

/** Write a password hash onto the user's credential account, creating the account when there is none. */
export async function storePasswordHash(
  ctx: AuthContext,
  db: Db,
  userId: string,
  passwordHash: string,
): Promise<AccountRow> {
  const now = ctx.now();
  const existing = await findCredentialAccount(db, userId);
  if (existing) {
    for (const changed of passwordChanged.handlers()) await changed(ctx, userId, db);
    const updated = await updateAccount(db, existing.id, { password: passwordHash, updatedAt: now });
    if (updated) return updated;
  }
  return insertCredentialAccount(db, { id: generateId(), userId, password: passwordHash, now });
}

/**
 * Hash outside any transaction (scrypt takes tens of milliseconds and must not hold a lock meanwhile), then
 * store the hash and record the event describing the change in one transaction.
 */
export async function setPassword(
  ctx: AuthContext,
  userId: string,
  password: string,
  event: SecurityEvent,
): Promise<AccountRow> {
  const passwordHash = await ctx.passwords.hash(password);
  return withTransaction(ctx, async (tx) => {
    const account = await storePasswordHash(tx, tx.db, userId, passwordHash);
    await recordSecurityEvent(tx, event);
    return account;
  });
}

/**
 * Give a user without a password one. False when they already have one, also when a concurrent call
 * won: the update only touches a credential account without a password, and the unique
 * (providerId, accountId) index lets only one new credential account in.
 */
export async function addPasswordIfMissing(
  ctx: AuthContext,
  userId: string,
  password: string,
  event: SecurityEvent,
): Promise<boolean> {
  const passwordHash = await ctx.passwords.hash(password);
  try {
    return await withTransaction(ctx, async (tx) => {
      const existing = await findCredentialAccount(tx.db, userId);
      const added = existing
        ? await setPasswordIfMissing(tx.db, existing.id, passwordHash, ctx.now())
        : // Insert, never update: a concurrent call may have created the account since the lookup above.
          Boolean(
            await insertCredentialAccount(tx.db, { id: generateId(), userId, password: passwordHash, now: ctx.now() }),
          );
      if (added) await recordSecurityEvent(tx, event);
      return added;
    });
  } catch (error) {
    if (isUniqueViolationOn(error, "accountId") || isUniqueViolationOn(error, "account_provider_account_unique"))
      return false;
    throw error;
  }
}

/** Whether the user has a password (a credential account with a hash). */
export async function hasPassword(ctx: AuthContext, userId: string): Promise<boolean> {
  return Boolean((await findCredentialAccount(ctx.db, userId))?.password);
}

/**
 * The password of a user's credential account, checked in about the time a real check takes even when
 * there is no user or no password, and whichever kind of hash an imported user still has (so timing reveals
 * neither which emails exist nor which were imported). An imported hash that matches is upgraded, by the
 * user proving it from `origin`.
 */
export async function checkPassword(
  ctx: AuthContext,
  user: Pick<UserRow, "id"> | undefined,
  password: string,
  origin: RequestOrigin,
): Promise<boolean> {
  const started = performance.now();
  const account = user ? await findCredentialAccount(ctx.db, user.id) : undefined;
  let proven = false;
  if (!account?.password) await ctx.passwords.verifyAgainstDummy(password);
  else {
    proven = await verifyAccountPassword(ctx, account, password, () => sourceOf(origin, "user", account.userId));
    // A wrong password against an imported hash also costs authd's own check, so a cheap legacy hash (bare
    // SHA-1 answers in a millisecond) does not stand out; a right one pays it hashing the upgrade.
    if (!proven && isImportedHash(account.password)) await ctx.passwords.verifyAgainstDummy(password);
  }
  await lastAtLeastTheFloor(ctx, started);
  return proven;
}

/**
 * A signed-in user proving their current password (change-password, delete-user). A stolen session must
 * not become a way to guess the password, so the attempt counts with the account's sign-ins (the
 * per-account throttle). CREDENTIAL_ACCOUNT_NOT_FOUND when the user has no password to prove.
 */
export async function proveCurrentPassword(
  ctx: AuthContext,
  user: UserRow,
  password: string,
  source: EventSource,
): Promise<boolean> {
  const account = await findCredentialAccount(ctx.db, user.id);
  if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  const proof = async () => ((await verifyAccountPassword(ctx, account, password, () => source)) ? user : null);
  return (await provePassword(ctx, { email: user.email }, proof, source)) !== null;
}
