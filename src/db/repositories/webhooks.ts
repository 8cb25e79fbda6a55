import type { AuditEventRow, Db, WebhookDeliveryRow, WebhookEndpointRow } from "../schema.ts";

// Webhook endpoints and their deliveries (the outbox). A delivery is claimed with one conditional
// UPDATE: only the daemon whose UPDATE matched the row sends that attempt.

export function insertEndpoint(db: Db, row: WebhookEndpointRow): Promise<unknown> {
  return db.insertInto("webhookEndpoint").values(row).execute();
}

/** Several daemons may start at once with the same config file: the first insert wins. */
export async function insertEndpointIfAbsent(db: Db, row: WebhookEndpointRow): Promise<void> {
  await db
    .insertInto("webhookEndpoint")
    .values(row)
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

export function listEndpoints(db: Db): Promise<WebhookEndpointRow[]> {
  return db.selectFrom("webhookEndpoint").selectAll().orderBy("createdAt", "asc").orderBy("id", "asc").execute();
}

export function findEndpoint(db: Db, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom("webhookEndpoint").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("webhookEndpoint").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateEndpoint(
  db: Db,
  id: string,
  changes: Pick<WebhookEndpointRow, "url" | "events" | "secret">,
) {
  await db.updateTable("webhookEndpoint").set(changes).where("id", "=", id).execute();
}

/** One pending delivery per (event, endpoint); a second insert of the same pair does nothing. */
export async function insertDeliveries(
  db: Db,
  rows: Pick<WebhookDeliveryRow, "id" | "endpointId" | "eventId" | "status" | "nextAttemptAt" | "createdAt">[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("webhookDelivery")
    .values(rows)
    .onConflict((oc) => oc.columns(["eventId", "endpointId"]).doNothing())
    .execute();
}

/** Ids of deliveries due now and not held by a live lease, leaving out those to the endpoints named. */
export async function listDueDeliveryIds(
  db: Db,
  now: number,
  limit: number,
  exceptEndpointIds: readonly string[] = [],
): Promise<string[]> {
  const rows = await db
    .selectFrom("webhookDelivery")
    .select("id")
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", now)]))
    .$if(exceptEndpointIds.length > 0, (query) => query.where("endpointId", "not in", exceptEndpointIds))
    .orderBy("nextAttemptAt", "asc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Take the lease on one due delivery; undefined when another daemon holds it or it is no longer due. */
export function claimDelivery(
  db: Db,
  id: string,
  owner: string,
  now: number,
  leaseUntil: number,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .updateTable("webhookDelivery")
    .set((eb) => ({ leaseOwner: owner, leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Record an attempt's result; only the lease holder's write counts. */
export async function finishAttempt(
  db: Db,
  id: string,
  owner: string,
  changes: Pick<WebhookDeliveryRow, "status" | "nextAttemptAt" | "lastStatus" | "lastError" | "deliveredAt">,
): Promise<void> {
  await db
    .updateTable("webhookDelivery")
    .set({ ...changes, leaseOwner: null, leaseUntil: null })
    .where("id", "=", id)
    .where("leaseOwner", "=", owner)
    .execute();
}

export interface EndpointDeliveryCounts {
  endpointId: string;
  status: string;
  count: number;
}

export async function countDeliveriesByEndpoint(db: Db): Promise<EndpointDeliveryCounts[]> {
  const rows = await db
    .selectFrom("webhookDelivery")
    .select((eb) => ["endpointId", "status", eb.fn.countAll<number | string>().as("count")])
    .groupBy(["endpointId", "status"])
    .execute();
  return rows.map((row) => ({ endpointId: row.endpointId, status: row.status, count: Number(row.count) }));
}

/** The newest finished attempt of each endpoint (for `webhooks list`). */
export function listLastAttempts(db: Db, endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom("webhookDelivery")
    .selectAll()
    .where("endpointId", "=", endpointId)
    .where("attempts", ">", 0)
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
}

export function findDeliveryEvent(db: Db, eventId: string): Promise<AuditEventRow | undefined> {
  return db.selectFrom("auditEvent").selectAll().where("id", "=", eventId).executeTakeFirst();
}
