import { sql, type Updateable } from "kysely";
import { compiledOnce } from "../compiled-query.ts";
import type { ApiKeyRow, ApiKeyTable, Db, NewApiKeyRow, UserRow } from "../schema.ts";

export function insertApiKey(db: Db, row: NewApiKeyRow): Promise<ApiKeyRow> {
  return db.insertInto("apikey").values(row).returningAll().executeTakeFirstOrThrow();
}

/** A key row with its owner's ban columns, read in the same query (verification refuses banned owners). */
export type ApiKeyWithOwnerBan = ApiKeyRow & { ownerBanned: UserRow["banned"]; ownerBanExpires: UserRow["banExpires"] };

const selectApiKeyByStoredKey = compiledOnce((db: Db, storedKey: string) =>
  db
    .selectFrom("apikey")
    .innerJoin("user", "user.id", "apikey.userId")
    .selectAll("apikey")
    .select(["user.banned as ownerBanned", "user.banExpires as ownerBanExpires"])
    .where("apikey.key", "=", storedKey),
);

/** Look a key up by its stored form (the SHA-256 of the key, or the key itself when hashing is off). */
export async function findApiKeyByStoredKey(db: Db, storedKey: string): Promise<ApiKeyWithOwnerBan | undefined> {
  const [row] = await selectApiKeyByStoredKey(db, storedKey);
  return row;
}

export function findApiKeyOfUser(db: Db, userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom("apikey").selectAll().where("id", "=", keyId).where("userId", "=", userId).executeTakeFirst();
}

export function listApiKeysByUserId(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom("apikey")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
}

export function updateApiKeyOfUser(
  db: Db,
  userId: string,
  keyId: string,
  changes: Updateable<ApiKeyTable>,
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable("apikey")
    .set(changes)
    .where("id", "=", keyId)
    .where("userId", "=", userId)
    .returningAll()
    .executeTakeFirst();
}

/** The usage counters a verification reads and writes. */
export type ApiKeyUsage = Pick<ApiKeyRow, "requestCount" | "remaining" | "lastRequest" | "lastRefillAt">;

/**
 * Compare-and-set of the usage counters: the row changes only if its counters are still the ones the
 * caller read, so two concurrent verifications can never both spend the same use (the loser re-reads
 * and decides again). Returns the updated row, or undefined when another writer got there first.
 */
export async function updateApiKeyUsageIfUnchanged(
  db: Db,
  keyId: string,
  expected: ApiKeyUsage,
  next: ApiKeyUsage,
  unflushed = false,
): Promise<ApiKeyRow | undefined> {
  const [row] = await (unflushed ? compareAndSetUsageUnflushed : compareAndSetUsage)(
    db,
    next.requestCount,
    next.remaining,
    next.lastRequest,
    next.lastRefillAt,
    keyId,
    expected.requestCount,
    expected.remaining,
    expected.lastRequest,
    expected.lastRefillAt,
  );
  return row;
}

// Compiled once: `is not distinct from` compares nulls as values (SQLite 3.39+ and Postgres), so one
// statement serves every combination of null counters; `usageVersion` moves on with each write.
const compareAndSetUsage = compiledOnce(
  (
    db: Db,
    requestCount: number,
    remaining: number | null,
    lastRequest: number | null,
    lastRefillAt: number | null,
    keyId: string,
    expectedRequestCount: number,
    expectedRemaining: number | null,
    expectedLastRequest: number | null,
    expectedLastRefillAt: number | null,
  ) =>
    db
      .updateTable("apikey")
      .set({ requestCount, remaining, lastRequest, lastRefillAt, usageVersion: sql`"usageVersion" + 1` })
      .where("id", "=", keyId)
      .where("requestCount", "=", expectedRequestCount)
      .where("remaining", "is not distinct from", expectedRemaining)
      .where("lastRequest", "is not distinct from", expectedLastRequest)
      .where("lastRefillAt", "is not distinct from", expectedLastRefillAt)
      .returningAll(),
);

/**
 * The same compare-and-set on Postgres, committed without waiting for the WAL flush: `set_config(…, true)`
 * turns `synchronous_commit` off for this statement's own transaction only (apiKey.usageWrites "fast"). The
 * write is visible to every daemon at once, as before; only a crash of Postgres itself can lose it.
 */
const compareAndSetUsageUnflushed = compiledOnce(
  (
    db: Db,
    requestCount: number,
    remaining: number | null,
    lastRequest: number | null,
    lastRefillAt: number | null,
    keyId: string,
    expectedRequestCount: number,
    expectedRemaining: number | null,
    expectedLastRequest: number | null,
    expectedLastRefillAt: number | null,
  ) =>
    db
      .with("unflushed", (q) =>
        q.selectNoFrom(sql<string>`set_config('synchronous_commit', 'off', true)`.as("setting")),
      )
      .updateTable("apikey")
      .from("unflushed")
      .set({ requestCount, remaining, lastRequest, lastRefillAt, usageVersion: sql`"usageVersion" + 1` })
      .where("id", "=", keyId)
      .where("requestCount", "=", expectedRequestCount)
      .where("remaining", "is not distinct from", expectedRemaining)
      .where("lastRequest", "is not distinct from", expectedLastRequest)
      .where("lastRefillAt", "is not distinct from", expectedLastRefillAt)
      .returningAll("apikey"),
);

/**
 * Write-behind of the uses of a key without limits: only `lastRequest` moves, never backwards, and only
 * while the key still has no limit (a key given one meanwhile is counted by its own path).
 */
export async function stampApiKeyLastRequest(
  db: Db,
  keyId: string,
  lastRequest: number,
  rateLimitsApply: boolean,
): Promise<void> {
  let query = db
    .updateTable("apikey")
    .set({ lastRequest })
    .where("id", "=", keyId)
    .where("remaining", "is", null)
    .where((eb) => eb.or([eb("lastRequest", "is", null), eb("lastRequest", "<", lastRequest)]));
  if (rateLimitsApply) query = query.where("rateLimitEnabled", "=", false);
  await query.execute();
}

/**
 * Copy counters kept elsewhere (Redis) into the row, only when they are newer than what the row holds:
 * two copies racing can never put an older count back. Returns whether the row changed.
 */
export async function writeApiKeyUsageIfNewer(
  db: Db,
  keyId: string,
  usage: ApiKeyUsage,
  version: number,
): Promise<boolean> {
  const result = await db
    .updateTable("apikey")
    .set({ ...usage, usageVersion: version })
    .where("id", "=", keyId)
    .where("usageVersion", "<", version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Give back what a daemon leased of a key and did not use (apiKey.usageWrites "leased"): `remaining` grows by
 * the unused uses, the window's count shrinks by its unused slots (never below 0), `lastRequest` moves to the
 * last use if that is later (or, for a window's block, takes the last use in place of the block's end
 * `blockEnd` while no other write came since). Only while the key is as it was leased: not edited since (`updatedAt`) and not
 * refilled since (`lastRefillAt`); otherwise nothing is given back and the unused uses stay spent.
 */
export async function returnLeasedApiKeyUses(
  db: Db,
  lease: { keyId: string; updatedAt: number; lastRefillAt: number | null },
  unusedRemaining: number,
  unusedWindow: number,
  lastUse: number | null,
  blockEnd: number | null,
): Promise<ApiKeyRow | undefined> {
  let lastRequest = sql<number | null>`"lastRequest"`;
  if (lastUse !== null && blockEnd !== null)
    lastRequest = sql`case when "lastRequest" = ${blockEnd} then ${lastUse} else "lastRequest" end`;
  else if (lastUse !== null)
    lastRequest = sql`case when "lastRequest" is null or "lastRequest" < ${lastUse} then ${lastUse} else "lastRequest" end`;
  return db
    .updateTable("apikey")
    .set({
      remaining: sql`"remaining" + ${unusedRemaining}`,
      requestCount: sql`case when "requestCount" > ${unusedWindow} then "requestCount" - ${unusedWindow} else 0 end`,
      lastRequest,
      usageVersion: sql`"usageVersion" + 1`,
    })
    .where("id", "=", lease.keyId)
    .where("updatedAt", "=", lease.updatedAt)
    .where("lastRefillAt", "is not distinct from", lease.lastRefillAt)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteApiKeyById(db: Db, keyId: string): Promise<number> {
  const result = await db.deleteFrom("apikey").where("id", "=", keyId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteApiKeyOfUser(db: Db, userId: string, keyId: string): Promise<number> {
  const result = await db.deleteFrom("apikey").where("id", "=", keyId).where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Delete every key of a user; returns how many went. */
export async function deleteApiKeysByUserId(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("apikey").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredApiKeys(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom("apikey")
    .where("expiresAt", "is not", null)
    .where("expiresAt", "<", now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
