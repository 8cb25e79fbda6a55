import type { AuthContext } from "../context.ts";
import { hashPassword } from "../crypto/password.ts";
import { generateId } from "../crypto/random.ts";
import { isUniqueViolationOn } from "../db/errors.ts";
import { CREDENTIAL_PROVIDER_ID, findCredentialAccount, insertAccount, updateAccount } from "../db/repositories/accounts.ts";
import type { AccountRow } from "../db/schema.ts";
import type { Db } from "./users.ts";

// The credential account holds a user's password hash. A user who signed up through a social provider
// has none until a reset or set-password creates it.

/** Write a password hash onto the user's credential account, creating the account when there is none. */
export async function storePasswordHash(ctx: AuthContext, db: Db, userId: string, passwordHash: string): Promise<AccountRow> {
  const now = ctx.now();
  const existing = await findCredentialAccount(db, userId);
  if (existing) {
    const updated = await updateAccount(db, existing.id, { password: passwordHash, updatedAt: now });
    if (updated) return updated;
  }
  return insertAccount(db, {
    id: generateId(),
    accountId: userId,
    providerId: CREDENTIAL_PROVIDER_ID,
    userId,
    password: passwordHash,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** Hash outside any transaction: scrypt takes tens of milliseconds and must not hold a lock meanwhile. */
export async function setUserPassword(ctx: AuthContext, userId: string, password: string): Promise<AccountRow> {
  return storePasswordHash(ctx, ctx.db, userId, await hashPassword(password));
}

/**
 * Give a user without a password one. False when they already have one, also when a concurrent call
 * won: the update only touches a credential account without a password, and the unique
 * (providerId, accountId) index lets only one new credential account in.
 */
export async function addPasswordIfMissing(ctx: AuthContext, userId: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const existing = await findCredentialAccount(ctx.db, userId);
  if (existing) {
    const result = await ctx.db
      .updateTable("account")
      .set({ password: passwordHash, updatedAt: ctx.now() })
      .where("id", "=", existing.id)
      .where("password", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
  try {
    await storePasswordHash(ctx, ctx.db, userId, passwordHash);
    return true;
  } catch (error) {
    if (isUniqueViolationOn(error, "accountId") || isUniqueViolationOn(error, "account_provider_account_unique")) return false;
    throw error;
  }
}
