import type { Kysely } from "kysely";

// The audit log (issue 21): one row per security event, written in the transaction of the change it
// describes, and the webhook outbox built on it. `fannedOut` marks events the delivery worker has turned
// into one delivery row per matching endpoint; deliveries are claimed with a lease (leaseUntil/leaseOwner)
// so that several daemons never send the same attempt twice.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("auditEvent")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("actorType", "text", (c) => c.notNull())
    .addColumn("actorId", "text")
    .addColumn("subjectId", "text")
    .addColumn("organizationId", "text")
    .addColumn("ip", "text")
    .addColumn("userAgent", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("fannedOut", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex("audit_event_created_at_idx").on("auditEvent").columns(["createdAt", "id"]).execute();
  await db.schema.createIndex("audit_event_subject_idx").on("auditEvent").columns(["subjectId", "createdAt"]).execute();
  await db.schema
    .createIndex("audit_event_fanned_out_idx")
    .on("auditEvent")
    .columns(["fannedOut", "createdAt"])
    .execute();

  await db.schema
    .createTable("webhookEndpoint")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("origin", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhookDelivery")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpointId", "text", (c) => c.notNull().references("webhookEndpoint.id").onDelete("cascade"))
    .addColumn("eventId", "text", (c) => c.notNull().references("auditEvent.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", "bigint", (c) => c.notNull())
    .addColumn("leaseUntil", "bigint")
    .addColumn("leaseOwner", "text")
    .addColumn("lastStatus", "integer")
    .addColumn("lastError", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("deliveredAt", "bigint")
    .addUniqueConstraint("webhook_delivery_event_endpoint_unique", ["eventId", "endpointId"])
    .execute();
  await db.schema
    .createIndex("webhook_delivery_due_idx")
    .on("webhookDelivery")
    .columns(["status", "nextAttemptAt"])
    .execute();
  await db.schema
    .createIndex("webhook_delivery_endpoint_idx")
    .on("webhookDelivery")
    .columns(["endpointId", "status"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("webhookDelivery").execute();
  await db.schema.dropTable("webhookEndpoint").execute();
  await db.schema.dropTable("auditEvent").execute();
}
