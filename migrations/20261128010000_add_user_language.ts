import type { Kysely } from "kysely";

// `user.language`: the language the user chose on the account page for authd's pages and mails (a code the
// message catalogue ships, such as "de"), or null to follow the browser's Accept-Language. Not on the wire:
// get-session, update-user and list-users keep Better Auth's keys, and Better Auth ignores the column.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("user").addColumn("language", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("user").dropColumn("language").execute();
}
