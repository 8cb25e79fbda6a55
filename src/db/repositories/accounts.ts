import type { AccountRow, Db, NewAccountRow } from "../schema.ts";

export const CREDENTIAL_PROVIDER_ID = "credential";

export function findCredentialAccount(db: Db, userId: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom("account")
    .selectAll()
    .where("userId", "=", userId)
    .where("providerId", "=", CREDENTIAL_PROVIDER_ID)
    .executeTakeFirst();
}

export function findAccountByProvider(db: Db, providerId: string, accountId: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom("account")
    .selectAll()
    .where("providerId", "=", providerId)
    .where("accountId", "=", accountId)
    .executeTakeFirst();
}

export function listAccountsByUserId(db: Db, userId: string): Promise<AccountRow[]> {
  return db.selectFrom("account").selectAll().where("userId", "=", userId).orderBy("createdAt", "asc").execute();
}

export function insertAccount(db: Db, row: NewAccountRow): Promise<AccountRow> {
  return db.insertInto("account").values(row).returningAll().executeTakeFirstOrThrow();
}

/** An account row holding no provider tokens: a password account, or a link brought by an import. */
export function insertAccountWithoutTokens(
  db: Db,
  row: { id: string; userId: string; providerId: string; accountId: string; password: string | null; now: number },
): Promise<AccountRow> {
  return insertAccount(db, {
    id: row.id,
    accountId: row.accountId,
    providerId: row.providerId,
    userId: row.userId,
    password: row.password,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt: row.now,
    updatedAt: row.now,
  });
}

/** The password account of a user (providerId "credential", accountId = the user id). */
export function insertCredentialAccount(
  db: Db,
  row: { id: string; userId: string; password: string; now: number },
): Promise<AccountRow> {
  return insertAccountWithoutTokens(db, { ...row, providerId: CREDENTIAL_PROVIDER_ID, accountId: row.userId });
}

/** Set the password of a credential account that has none; false when it has one (or is gone). */
export async function setPasswordIfMissing(db: Db, id: string, password: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("account")
    .set({ password, updatedAt: now })
    .where("id", "=", id)
    .where("password", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function updateAccount(
  db: Db,
  id: string,
  changes: Partial<Omit<AccountRow, "id">>,
): Promise<AccountRow | undefined> {
  return db.updateTable("account").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteAccount(db: Db, id: string): Promise<number> {
  const result = await db.deleteFrom("account").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Remove the user's password account; returns how many rows went (0 or 1). */
export async function deleteCredentialAccount(db: Db, userId: string): Promise<number> {
  const result = await db
    .deleteFrom("account")
    .where("userId", "=", userId)
    .where("providerId", "=", CREDENTIAL_PROVIDER_ID)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Remove a user's provider accounts (with their tokens) but the one whose row id is `keepId`; how many went. */
export async function deleteProviderAccounts(db: Db, userId: string, keepId: string | null): Promise<number> {
  let query = db.deleteFrom("account").where("userId", "=", userId).where("providerId", "!=", CREDENTIAL_PROVIDER_ID);
  if (keepId !== null) query = query.where("id", "!=", keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Replace a credential account's password only if it still holds `expected` (a concurrent upgrade or change wins). */
export async function replacePasswordIf(
  db: Db,
  id: string,
  expected: string,
  password: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable("account")
    .set({ password, updatedAt: now })
    .where("id", "=", id)
    .where("password", "=", expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
