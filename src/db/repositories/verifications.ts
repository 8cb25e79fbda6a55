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

/** The unexpired records of one kind (identifier prefix) that hold `value` (a user's trusted browsers), newest first. */
export function listLiveVerificationsOfValue(
  db: Db,
  identifierPrefix: string,
  value: string,
  now: number,
): Promise<VerificationRow[]> {
  return db
    .selectFrom("verification")
    .selectAll()
    .where("identifier", "like", `${identifierPrefix}%`)
    .where("value", "=", value)
    .where("expiresAt", ">", now)
    .orderBy("createdAt", "desc")
    .orderBy("id", "asc")
    .execute();
}

/** Delete one record of a kind (identifier prefix) only if it holds `value`; true when it did. */
export async function deleteVerificationOfValue(
  db: Db,
  id: string,
  identifierPrefix: string,
  value: string,
): Promise<boolean> {
  const rows = await db
    .deleteFrom("verification")
    .where("id", "=", id)
    .where("identifier", "like", `${identifierPrefix}%`)
    .where("value", "=", value)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Delete the records of one kind (identifier prefix) that hold `value` (a user's other reset links); how many went. */
export async function deleteVerificationsOfValue(db: Db, identifierPrefix: string, value: string): Promise<number> {
  const result = await db
    .deleteFrom("verification")
    .where("identifier", "like", `${identifierPrefix}%`)
    .where("value", "=", value)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Delete and return one unexpired record (a challenge) in one statement: one concurrent caller wins. */
export async function consumeLiveVerification(
  db: Db,
  identifier: string,
  now: number,
): Promise<VerificationRow | undefined> {
  const rows = await db
    .deleteFrom("verification")
    .where("identifier", "=", identifier)
    .where("expiresAt", ">", now)
    .returningAll()
    .execute();
  return rows[0];
}

/** Replace a record's value only if it still holds `expected` (compare-and-set); true when it did. */
export async function updateVerificationIfUnchanged(
  db: Db,
  id: string,
  expected: string,
  value: string,
  now: number,
): Promise<boolean> {
  const rows = await db
    .updateTable("verification")
    .set({ value, updatedAt: now })
    .where("id", "=", id)
    .where("value", "=", expected)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Delete one record only if it still holds `expected`; true for the one caller that deleted it. */
export async function deleteVerificationIf(db: Db, id: string, expected: string): Promise<boolean> {
  const rows = await db
    .deleteFrom("verification")
    .where("id", "=", id)
    .where("value", "=", expected)
    .returning("id")
    .execute();
  return rows.length > 0;
}

export async function deleteVerificationById(db: Db, id: string): Promise<void> {
  await db.deleteFrom("verification").where("id", "=", id).execute();
}

export async function deleteVerificationsOfIdentifier(db: Db, identifier: string): Promise<void> {
  await db.deleteFrom("verification").where("identifier", "=", identifier).execute();
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

/**
 * Insert a record under a fixed id (one record per subject, e.g. per user) unless one is there already;
 * true when this call inserted it. The primary key decides between concurrent inserts.
 */
export async function insertVerificationIfAbsent(
  db: Db,
  record: { id: string; value: string; expiresAt: number; now: number },
): Promise<boolean> {
  const { id, value, expiresAt, now } = record;
  const rows = await db
    .insertInto("verification")
    .values({ id, identifier: id, value, expiresAt, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .execute();
  return rows.length > 0;
}

export function findVerificationById(db: Db, id: string): Promise<VerificationRow | undefined> {
  return db.selectFrom("verification").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Replace a record's value and expiry only if it still holds `expected` (compare-and-set); true when it did. */
export async function replaceVerificationIfUnchanged(
  db: Db,
  id: string,
  expected: string,
  next: { value: string; expiresAt: number; now: number },
): Promise<boolean> {
  const rows = await db
    .updateTable("verification")
    .set({ value: next.value, expiresAt: next.expiresAt, updatedAt: next.now })
    .where("id", "=", id)
    .where("value", "=", expected)
    .returning("id")
    .execute();
  return rows.length > 0;
}
