import { type Kysely, sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { describeEachDialect } from "../helpers/context.ts";
import { migratorFor, scratchDatabase } from "../helpers/migrations.ts";

// The user directory's indexes (migration 20261127214500) go on and come off on both dialects, and a
// database taken back before them has the index on createdAt alone again.

const BEFORE = "20261127213700_add_webhook_delivery_log";
const ADDED = "20261127214500_add_user_directory_indexes";

async function userIndexes(db: Kysely<unknown>, dialect: string): Promise<string[]> {
  const rows =
    dialect === "postgres"
      ? await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename in ('user', 'account')`.execute(
          db,
        )
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name in ('user', 'account')`.execute(db);
  return rows.rows.map((row) => row.name).filter((name) => !name.startsWith("sqlite_autoindex"));
}

describeEachDialect("user directory indexes migration", (dialect) => {
  it("adds the directory's indexes and takes them off again", async () => {
    const scratch = await scratchDatabase(dialect);
    const handle = openDatabase(scratch.url);
    try {
      const db = handle.db as Kysely<unknown>;
      const migrator = migratorFor(db, handle.schema);
      const before = await migrator.migrateTo(BEFORE);
      if (before.error) throw before.error;
      const old = (await userIndexes(db, dialect)).sort();
      const up = await migrator.migrateTo(ADDED);
      if (up.error) throw up.error;
      const added = await userIndexes(db, dialect);
      const mine = ["user_created_at_id_idx", "user_role_idx", "account_provider_user_idx", "user_name_lower_idx"];
      const partial = ["user_banned_idx", "user_unverified_idx", "user_two_factor_idx"];
      const bytewise = dialect === "postgres" ? ["user_email_bytes_idx", "user_username_bytes_idx"] : [];
      expect(added.filter((name) => !old.includes(name)).sort()).toEqual([...mine, ...partial, ...bytewise].sort());
      expect(added).not.toContain("user_created_at_idx");

      const down = await migrator.migrateTo(BEFORE);
      if (down.error) throw down.error;
      expect((await userIndexes(db, dialect)).sort()).toEqual(old);
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });
});
