import type { Kysely } from "kysely";

// Webhook endpoints for the web console (issue 32):
// - webhookEndpoint.disabled: an endpoint an operator paused; it gets no deliveries until enabled again.
// - webhookEndpoint.previousSecret / previousSecretExpiresAt: after a rotation, the old secret signs beside
//   the new one until then, so receivers can switch without losing a message (docs/events.md).
// - webhookAttempt: the delivery log, one row per request sent (by the worker, a resend or a test): what was
//   sent (event type and id, body size), the answer's status, how long it took and the error. Kept
//   webhooks.logRetention, pruned by the daemon's worker. The event id is not a foreign key: an entry outlives
//   neither its endpoint nor its retention, but it may outlive an audit event pruned sooner.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("webhookEndpoint")
    .addColumn("disabled", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable("webhookEndpoint").addColumn("previousSecret", "text").execute();
  await db.schema.alterTable("webhookEndpoint").addColumn("previousSecretExpiresAt", "bigint").execute();

  await db.schema
    .createTable("webhookAttempt")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpointId", "text", (c) => c.notNull().references("webhookEndpoint.id").onDelete("cascade"))
    .addColumn("deliveryId", "text")
    .addColumn("eventId", "text")
    .addColumn("eventType", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("requestBytes", "integer", (c) => c.notNull())
    .addColumn("attemptedAt", "bigint", (c) => c.notNull())
    .addColumn("durationMs", "integer", (c) => c.notNull())
    .addColumn("ok", "boolean", (c) => c.notNull())
    .addColumn("responseStatus", "integer")
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("webhook_attempt_endpoint_idx")
    .on("webhookAttempt")
    .columns(["endpointId", "attemptedAt"])
    .execute();
  await db.schema.createIndex("webhook_attempt_attempted_at_idx").on("webhookAttempt").column("attemptedAt").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("webhookAttempt").execute();
  await db.schema.alterTable("webhookEndpoint").dropColumn("previousSecretExpiresAt").execute();
  await db.schema.alterTable("webhookEndpoint").dropColumn("previousSecret").execute();
  await db.schema.alterTable("webhookEndpoint").dropColumn("disabled").execute();
}
