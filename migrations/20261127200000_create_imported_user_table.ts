import type { Kysely } from "kysely";

// `importedUser`: which user each imported record became (issue 33). `(source, sourceId)` is the
// primary key, so running the same import again finds every record already there and changes nothing.
// The row goes with its user.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("importedUser")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("sourceId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("importedAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("imported_user_pkey", ["source", "sourceId"])
    .execute();
  await db.schema.createIndex("imported_user_user_id").on("importedUser").column("userId").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("importedUser").execute();
}
