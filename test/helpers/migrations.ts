import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, Migrator } from "kysely";
import { migrations } from "../../migrations/index.ts";
import type { Dialect } from "./context.ts";
import { createPostgresSchema } from "./postgres.ts";

// Upgrade tests: a scratch database brought to an older schema, filled the old way, then opened by authd.

export async function scratchDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === "postgres") return createPostgresSchema();
  const dir = mkdtempSync(join(tmpdir(), "authd-migration-"));
  return { url: `sqlite://${join(dir, "auth.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A migrator over the real migrations, with authd's own table names. */
export function migratorFor(db: Kysely<unknown>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: "authd_migration",
    migrationLockTableName: "authd_migration_lock",
    migrationTableSchema: schema,
  });
}
