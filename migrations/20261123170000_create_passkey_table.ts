import type { Kysely } from "kysely";

// Passkeys (WebAuthn credentials), with Better Auth's `passkey` columns. Two differences from Better Auth
// 1.3.4, both for safety: a credential id is unique (the WebAuthn spec says to refuse one already
// registered; without the index, a client could register another user's credential id and make sign-in
// with it pick either row), and a user's passkeys go with the user (1.3.4 leaves them behind).

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("passkey")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text")
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("credentialID", "text", (c) => c.notNull().unique())
    .addColumn("counter", "bigint", (c) => c.notNull())
    .addColumn("deviceType", "text", (c) => c.notNull())
    .addColumn("backedUp", "boolean", (c) => c.notNull())
    .addColumn("transports", "text")
    .addColumn("createdAt", "bigint")
    .addColumn("aaguid", "text")
    .execute();
  await db.schema.createIndex("passkey_user_id_idx").on("passkey").column("userId").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("passkey").execute();
}
