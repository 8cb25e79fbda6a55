import type { Kysely } from "kysely";

// Two-factor authentication: Better Auth's `twoFactor` table and `user.twoFactorEnabled` column, plus
// `lastUsedStep`, the newest TOTP time step that completed a sign-in (a conditional UPDATE on it keeps
// each code single-use). `secret` and `backupCodes` hold ciphertext only. One row per user (unique).

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("user").addColumn("twoFactorEnabled", "boolean").execute();
  await db.schema
    .createTable("twoFactor")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backupCodes", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().unique().references("user.id").onDelete("cascade"))
    .addColumn("lastUsedStep", "bigint")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("twoFactor").execute();
  await db.schema.alterTable("user").dropColumn("twoFactorEnabled").execute();
}
