import type { Db, NewPasskeyRow, PasskeyRow } from "../schema.ts";

export function insertPasskey(db: Db, row: NewPasskeyRow): Promise<PasskeyRow> {
  return db.insertInto("passkey").values(row).returningAll().executeTakeFirstOrThrow();
}

export function listPasskeysByUserId(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom("passkey")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
}

export function findPasskeyByCredentialId(db: Db, credentialID: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom("passkey").selectAll().where("credentialID", "=", credentialID).executeTakeFirst();
}

export function renamePasskeyOfUser(
  db: Db,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<PasskeyRow | undefined> {
  return db
    .updateTable("passkey")
    .set({ name })
    .where("id", "=", passkeyId)
    .where("userId", "=", userId)
    .returningAll()
    .executeTakeFirst();
}

export function deletePasskeyOfUser(db: Db, userId: string, passkeyId: string): Promise<PasskeyRow | undefined> {
  return db
    .deleteFrom("passkey")
    .where("id", "=", passkeyId)
    .where("userId", "=", userId)
    .returningAll()
    .executeTakeFirst();
}

/** Delete every passkey of a user; returns how many went. */
export async function deletePasskeysByUserId(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("passkey").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Move a passkey's signature counter from the value the assertion was checked against to the new one, and
 * note the use, in one conditional statement: of two assertions checked against the same stored value,
 * only one moves it.
 */
export async function advancePasskeyCounter(
  db: Db,
  passkeyId: string,
  checkedAgainst: number,
  use: { counter: number; at: number },
): Promise<boolean> {
  const rows = await db
    .updateTable("passkey")
    .set({ counter: use.counter, lastUsedAt: use.at })
    .where("id", "=", passkeyId)
    .where("counter", "=", checkedAgainst)
    .returning("id")
    .execute();
  return rows.length > 0;
}
