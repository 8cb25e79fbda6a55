import type { Kysely } from "kysely";

// The table `jwks` (Better Auth's: id, publicKey, privateKey, createdAt) holds the keys that sign authd's
// JWTs (GET /token, set-auth-jwt). Rotation needs two more columns: `alg` (the key's algorithm; a row
// from before this change can only be Better Auth's default, EdDSA) and `expiresAt`, set when a newer key
// takes over: the old key stays published until every token it signed has expired (null: not retired).
// privateKey holds the key encrypted under a key derived from the app secret, never the key in clear.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("jwks")
    .addColumn("alg", "text", (c) => c.notNull().defaultTo("EdDSA"))
    .execute();
  await db.schema.alterTable("jwks").addColumn("expiresAt", "bigint").execute();
  await db.schema.createIndex("jwks_created_at_idx").on("jwks").column("createdAt").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("jwks_created_at_idx").execute();
  await db.schema.alterTable("jwks").dropColumn("expiresAt").execute();
  await db.schema.alterTable("jwks").dropColumn("alg").execute();
}
