import { generateId } from "../../crypto/random.ts";
import type { Db, VerificationRow } from "../schema.ts";

export function insertVerification(
  db: Db,
  identifier: string,
  value: string,
  expiresAt: number,
  now: number,
): Promise<VerificationRow> {
  return db
    .insertInto("verification")
    .values({ id: generateId(), identifier, value, expiresAt, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findVerification(db: Db, identifier: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom("verification")
    .selectAll()
    .where("identifier", "=", identifier)
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
}

/**
 * Delete and return the record in one statement. Only one of several concurrent callers gets the row
 * back, which is what keeps single-use tokens single-use.
 */
export async function consumeVerification(db: Db, identifier: string): Promise<VerificationRow | undefined> {
  const rows = await db.deleteFrom("verification").where("identifier", "=", identifier).returningAll().execute();
  return rows[0];
}

/** Delete the records of one kind (identifier prefix) that hold `value` (a user's other reset links). */
export async function deleteVerificationsOfValue(db: Db, identifierPrefix: string, value: string): Promise<void> {
  await db
    .deleteFrom("verification")
    .where("identifier", "like", `${identifierPrefix}%`)
    .where("value", "=", value)
    .execute();
}

/** Delete the expired records of one kind (identifier prefix); returns how many went. */
export async function deleteExpiredVerifications(db: Db, identifierPrefix: string, now: number): Promise<number> {
  const rows = await db
    .deleteFrom("verification")
    .where("identifier", "like", `${identifierPrefix}%`)
    .where("expiresAt", "<=", now)
    .returning("id")
    .execute();
  return rows.length;
}
