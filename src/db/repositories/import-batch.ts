import { sql } from "kysely";
import type { ImportedUserTable } from "../import-schema.ts";
import type { Db, NewAccountRow, NewUserRow } from "../schema.ts";

// The reads and writes of an import batch (issue 33) in as few statements as the batch allows: what exists
// already for a batch's source ids, emails, usernames and ids, and the batch's new rows written together.

/** Rows per insert statement: well under SQLite's and Postgres's limits on bound values. */
const ROWS_PER_STATEMENT = 200;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) out.push(rows.slice(at, at + ROWS_PER_STATEMENT));
  return out;
}

export async function findImportedUserIds(db: Db, source: string, sourceIds: string[]): Promise<Map<string, string>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("importedUser")
    .select(["sourceId", "userId"])
    .where("source", "=", source)
    .where("sourceId", "in", sourceIds)
    .execute();
  return new Map(rows.map((row) => [row.sourceId, row.userId]));
}

export function findUsersByEmails(
  db: Db,
  emails: string[],
): Promise<{ id: string; email: string; emailVerified: unknown }[]> {
  if (emails.length === 0) return Promise.resolve([]);
  return db.selectFrom("user").select(["id", "email", "emailVerified"]).where("email", "in", emails).execute();
}

export async function findTakenUsernames(db: Db, usernames: string[]): Promise<Set<string>> {
  if (usernames.length === 0) return new Set();
  const rows = await db.selectFrom("user").select("username").where("username", "in", usernames).execute();
  return new Set(rows.map((row) => row.username ?? ""));
}

export async function findTakenUserIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("user").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The provider accounts among `links` already linked to a user, as `provider accountId` keys (asked by
 * provider and account id both, so the (providerId, accountId) unique index answers).
 */
export async function findLinkedAccountKeys(
  db: Db,
  links: { provider: string; accountId: string }[],
): Promise<Set<string>> {
  if (links.length === 0) return new Set();
  const rows = await db
    .selectFrom("account")
    .select(["providerId", "accountId"])
    .where("providerId", "in", [...new Set(links.map((link) => link.provider))])
    .where(
      "accountId",
      "in",
      links.map((link) => link.accountId),
    )
    .execute();
  return new Set(rows.map((row) => `${row.providerId} ${row.accountId}`));
}

export async function insertUserRows(db: Db, rows: NewUserRow[]): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto("user").values(part).execute();
}

export async function insertAccountRows(db: Db, rows: NewAccountRow[]): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto("account").values(part).execute();
}

export async function insertImportedUserRows(db: Db, rows: ImportedUserTable[]): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto("importedUser").values(part).execute();
}

/**
 * Postgres plans from its statistics, which a bulk import outgrows faster than autovacuum refreshes them:
 * planned for an empty table, the batch's lookups scan every row against a 500-value list (half a second a
 * batch at 20,000 users). Fresh statistics of the tables an import grows keep them on their indexes.
 */
export async function refreshImportStatistics(db: Db): Promise<void> {
  await sql`analyze "user", "account", "importedUser"`.execute(db);
}
