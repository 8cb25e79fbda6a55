import type { Insertable } from "kysely";
import type { Db, WebhookAttemptRow, WebhookAttemptTable } from "../schema.ts";

// The webhook delivery log: one row per request sent to an endpoint, newest first when read.

export interface AttemptFilter {
  endpointId: string;
  /** Only the attempts that did not get a 2xx. */
  failedOnly?: boolean;
}

export async function insertAttempt(db: Db, row: Insertable<WebhookAttemptTable>): Promise<void> {
  await db.insertInto("webhookAttempt").values(row).execute();
}

export function findAttempt(db: Db, id: string): Promise<WebhookAttemptRow | undefined> {
  return db.selectFrom("webhookAttempt").selectAll().where("id", "=", id).executeTakeFirst();
}

function filtered(db: Db, filter: AttemptFilter) {
  return db
    .selectFrom("webhookAttempt")
    .where("endpointId", "=", filter.endpointId)
    .$if(filter.failedOnly === true, (query) => query.where("ok", "=", false));
}

export function listAttempts(
  db: Db,
  filter: AttemptFilter,
  page: { limit: number; offset: number },
): Promise<WebhookAttemptRow[]> {
  return filtered(db, filter)
    .selectAll()
    .orderBy("attemptedAt", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAttempts(db: Db, filter: AttemptFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The newest entry of the endpoint's log, if any. */
export function findLastAttempt(db: Db, endpointId: string): Promise<WebhookAttemptRow | undefined> {
  return db
    .selectFrom("webhookAttempt")
    .selectAll()
    .where("endpointId", "=", endpointId)
    .orderBy("attemptedAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Entries older than `before` removed (webhooks.logRetention); returns how many. */
export async function deleteAttemptsBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom("webhookAttempt").where("attemptedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
