import type { Kysely } from "kysely";

// `apikey.usageVersion`: how far the usage counters of a key have been written, counted in uses. With
// Redis, the exact counters of keys with limits live there and are copied into the row now and then;
// the copy only lands when it is newer than what the row holds, so two daemons copying at once can
// never put an older count back. Without Redis the compare-and-set of a use moves it on by one.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("apikey")
    .addColumn("usageVersion", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("apikey").dropColumn("usageVersion").execute();
}
