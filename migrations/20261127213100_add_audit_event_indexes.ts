import type { Kysely } from "kysely";

// The audit log read by type and by actor (the web console's filters, issue 32) and counted per hour for its
// overview: `type, createdAt, outcome` serves a filter on one or several types in time order and lets the
// overview's counts of sign-ups and sign-ins (failed ones apart) over 30 days read the index alone;
// `actorId, createdAt` serves "what did this admin do". The subject and time indexes came with the table.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex("audit_event_type_created_at_idx")
    .on("auditEvent")
    .columns(["type", "createdAt", "outcome"])
    .execute();
  await db.schema.createIndex("audit_event_actor_idx").on("auditEvent").columns(["actorId", "createdAt"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("audit_event_actor_idx").execute();
  await db.schema.dropIndex("audit_event_type_created_at_idx").execute();
}
