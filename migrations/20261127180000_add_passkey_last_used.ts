import type { Kysely } from "kysely";

// `passkey.lastUsedAt`: when the passkey last signed its owner in (epoch ms), so the account page can show
// it beside when it was added. Null until its first sign-in after this column came (and for passkeys that
// never sign in); Better Auth has no such column and ignores it.

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("passkey").addColumn("lastUsedAt", "bigint").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("passkey").dropColumn("lastUsedAt").execute();
}
