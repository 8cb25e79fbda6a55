import { sql } from "kysely";
import { columnMatches } from "../like.ts";
import type { AuditEventRow, Db, NewAuditEventRow } from "../schema.ts";

// The audit log's rows. Listing is newest first (ties broken by id); following reads forward from a
// point in time. Each function runs one query.

export interface AuditFilter {
  types?: string[];
  subjectId?: string;
  actorId?: string;
  actorType?: string;
  organizationId?: string;
  outcome?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /** Text found (literally, ignoring case) in the type, the subject's id or email, the actor's id, or the ip. */
  search?: string;
}

export async function insertAuditEvent(db: Db, row: NewAuditEventRow): Promise<void> {
  await db.insertInto("auditEvent").values(row).execute();
}

function filtered(db: Db, filter: AuditFilter) {
  let query = db.selectFrom("auditEvent");
  if (filter.types && filter.types.length > 0) query = query.where("type", "in", filter.types);
  if (filter.subjectId !== undefined) query = query.where("subjectId", "=", filter.subjectId);
  if (filter.actorId !== undefined) query = query.where("actorId", "=", filter.actorId);
  if (filter.actorType !== undefined) query = query.where("actorType", "=", filter.actorType);
  if (filter.organizationId !== undefined) query = query.where("organizationId", "=", filter.organizationId);
  if (filter.outcome !== undefined) query = query.where("outcome", "=", filter.outcome);
  if (filter.since !== undefined) query = query.where("createdAt", ">=", filter.since);
  if (filter.until !== undefined) query = query.where("createdAt", "<", filter.until);
  const search = filter.search;
  if (search)
    query = query.where((eb) =>
      eb.or([
        ...["type", "subjectId", "actorId", "ip"].map((column) => columnMatches(column, search)),
        // The subject's current email: operators know people by address, the log keeps only ids.
        eb("subjectId", "in", eb.selectFrom("user").select("id").where(columnMatches("email", search))),
      ]),
    );
  return query;
}

export function listAuditEvents(
  db: Db,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<AuditEventRow[]> {
  return filtered(db, filter)
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAuditEvents(db: Db, filter: AuditFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Events at or after `since`, oldest first (the follower drops ids it has already shown). */
export function listAuditEventsForward(db: Db, filter: AuditFilter, limit: number): Promise<AuditEventRow[]> {
  return filtered(db, filter).selectAll().orderBy("createdAt", "asc").orderBy("id", "asc").limit(limit).execute();
}

/**
 * Events not yet turned into webhook deliveries, oldest first. On Postgres (in a transaction) the rows are
 * locked and rows another daemon holds are skipped; SQLite has one writer at a time anyway.
 */
export function listEventsToFanOut(db: Db, limit: number, lockRows: boolean): Promise<AuditEventRow[]> {
  const query = db
    .selectFrom("auditEvent")
    .selectAll()
    .where("fannedOut", "=", false)
    .orderBy("createdAt", "asc")
    .limit(limit);
  return (lockRows ? query.forUpdate().skipLocked() : query).execute();
}

export async function markFannedOut(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("auditEvent").set({ fannedOut: true }).where("id", "in", ids).execute();
}

/** Delete events older than `before` (their deliveries go with them); returns how many. */
export async function deleteAuditEventsBefore(db: Db, before: number): Promise<number> {
  await db
    .deleteFrom("webhookDelivery")
    .where("eventId", "in", db.selectFrom("auditEvent").select("id").where("createdAt", "<", before))
    .execute();
  const result = await db.deleteFrom("auditEvent").where("createdAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findAuditEvent(db: Db, id: string): Promise<AuditEventRow | undefined> {
  return db.selectFrom("auditEvent").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Where a walk through the log stopped: the last event it read. */
export interface AuditCursor {
  createdAt: number;
  id: string;
}

/**
 * The next `limit` events matching the filter after `cursor` in listing order (newest first, ties by id), or
 * the first ones without a cursor. An export walks the whole log this way: each batch is one index range,
 * where an offset would read every skipped row again.
 */
export function listAuditEventsAfter(
  db: Db,
  filter: AuditFilter,
  cursor: AuditCursor | null,
  limit: number,
): Promise<AuditEventRow[]> {
  let query = filtered(db, filter);
  // The row comparison is an index range on both dialects (an OR of the two cases would scan from the top).
  if (cursor)
    query = query.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)));
  return query.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).execute();
}

export interface AuditBucketCount {
  /** The bucket's number: 0 is [since, since + bucketMs). */
  bucket: number;
  type: string;
  outcome: string;
  count: number;
}

/**
 * Events of these types in [since, until), counted per bucket of `bucketMs`, type and outcome: one grouped
 * query over the (type, createdAt, outcome) index. The bucket is computed in a subquery and grouped by name,
 * since Postgres would not match the same expression bound twice with separate parameters.
 */
export async function countAuditEventsPerBucket(
  db: Db,
  query: { types: string[]; since: number; until: number; bucketMs: number },
): Promise<AuditBucketCount[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("auditEvent")
        .select([
          "type",
          "outcome",
          sql<number>`(${sql.ref("createdAt")} - ${query.since}) / ${query.bucketMs}`.as("bucket"),
        ])
        .where("type", "in", query.types)
        .where("createdAt", ">=", query.since)
        .where("createdAt", "<", query.until)
        .as("event"),
    )
    .select((eb) => ["bucket", "type", "outcome", eb.fn.countAll<number | string>().as("count")])
    .groupBy(["bucket", "type", "outcome"])
    .execute();
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    type: row.type,
    outcome: row.outcome,
    count: Number(row.count),
  }));
}
