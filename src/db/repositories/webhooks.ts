import type { Updateable } from "kysely";
import type {
  AuditEventRow,
  Db,
  NewWebhookEndpointRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEndpointTable,
} from "../schema.ts";

// Webhook endpoints and their deliveries (the outbox). A delivery is claimed with one conditional
// UPDATE: only the daemon whose UPDATE matched the row sends that attempt.

export function insertEndpoint(db: Db, row: NewWebhookEndpointRow): Promise<unknown> {
  return db.insertInto("webhookEndpoint").values(row).execute();
}

/** Several daemons may start at once with the same config file: the first insert wins. */
export async function insertEndpointIfAbsent(db: Db, row: NewWebhookEndpointRow): Promise<void> {
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

export type WebhookEndpointChanges = Pick<
  Updateable<WebhookEndpointTable>,
  "url" | "events" | "secret" | "disabled" | "previousSecret" | "previousSecretExpiresAt"
>;

/** Whether the endpoint was there to change. */
export async function updateEndpoint(db: Db, id: string, changes: WebhookEndpointChanges): Promise<boolean> {
  const result = await db.updateTable("webhookEndpoint").set(changes).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * An endpoint's waiting deliveries marked failed (it was disabled): none is sent later; each can be resent
 * from the log once the endpoint is enabled. One held by a lease is in flight and finishes as it goes.
 */
export async function failPendingDeliveries(db: Db, endpointId: string, now: number, error: string): Promise<number> {
  const result = await db
    .updateTable("webhookDelivery")
    .set({ status: "failed", lastError: error })
    .where("endpointId", "=", endpointId)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findDelivery(db: Db, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom("webhookDelivery").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * A delivery a resend got through to: delivered, so the worker stops retrying it. Not while a daemon holds
 * its lease (that attempt records its own result).
 */
export async function markDeliveredByResend(db: Db, id: string, now: number, status: number | null): Promise<void> {
  await db
    .updateTable("webhookDelivery")
    .set({ status: "delivered", deliveredAt: now, lastStatus: status, lastError: null })
    .where("id", "=", id)
    .where("status", "!=", "delivered")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", now)]))
    .execute();
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
    // A disabled endpoint gets nothing, even what was waiting when it was disabled and escaped the marking.
    .where("endpointId", "not in", (eb) => eb.selectFrom("webhookEndpoint").select("id").where("disabled", "=", true))
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

/** Pending deliveries due before `before` to enabled endpoints: work a running worker should have done. */
export async function countOverdueDeliveries(db: Db, before: number): Promise<number> {
  const row = await db
    .selectFrom("webhookDelivery")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<", before)
    .where("endpointId", "not in", (eb) => eb.selectFrom("webhookEndpoint").select("id").where("disabled", "=", true))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
