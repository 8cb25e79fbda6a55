import type { Kysely, Transaction } from "kysely";
import type { AccountRow, Database, NewAccountRow } from "../schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const CREDENTIAL_PROVIDER_ID = "credential";

export function findCredentialAccount(db: Db, userId: string): Promise<AccountRow | undefined> {
  return db.selectFrom("account").selectAll().where("userId", "=", userId).where("providerId", "=", CREDENTIAL_PROVIDER_ID).executeTakeFirst();
}

export function findAccountByProvider(db: Db, providerId: string, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom("account").selectAll().where("providerId", "=", providerId).where("accountId", "=", accountId).executeTakeFirst();
}

export function listAccountsByUserId(db: Db, userId: string): Promise<AccountRow[]> {
  return db.selectFrom("account").selectAll().where("userId", "=", userId).orderBy("createdAt", "asc").execute();
}

export function insertAccount(db: Db, row: NewAccountRow): Promise<AccountRow> {
  return db.insertInto("account").values(row).returningAll().executeTakeFirstOrThrow();
}

/** The password account of a user (providerId "credential", accountId = the user id). */
export function insertCredentialAccount(db: Db, row: { id: string; userId: string; password: string; now: number }): Promise<AccountRow> {
  return insertAccount(db, {
    id: row.id,
    accountId: row.userId,
    providerId: CREDENTIAL_PROVIDER_ID,
    userId: row.userId,
    password: row.password,
    accessToken: null, refreshToken: null, idToken: null,
    accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null,
    createdAt: row.now,
    updatedAt: row.now,
  });
}

export function updateAccount(db: Db, id: string, changes: Partial<Omit<AccountRow, "id">>): Promise<AccountRow | undefined> {
  return db.updateTable("account").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteAccount(db: Db, id: string): Promise<number> {
  const result = await db.deleteFrom("account").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
