import { type Kysely, type Migration, type MigrationResult, Migrator, sql } from "kysely";
import { migrations } from "../../migrations/index.ts";
import { DependencyError, describeTarget } from "../dependencies.ts";
import type { Database } from "./schema.ts";

export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

// The schema matters on Postgres: without it Kysely looks for its bookkeeping tables in every schema of the
// database and may find another tenant's.
function createMigrator(db: Kysely<Database>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async (): Promise<Record<string, Migration>> => migrations },
    migrationTableName: "authd_migration",
    migrationLockTableName: "authd_migration_lock",
    migrationTableSchema: schema,
  });
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "MigrationError";
  }
}

// Introspection reads authd's own schema only (db/one-schema-dialect.ts), but a table or column another
// process drops or changes during the scan can still fail it ("schema … does not exist" 3F000, "relation …"
// 42P01, "column …" 42703) before any migration ran. Such a failure is worth a retry.
const CATALOG_RACE_CODES = new Set(["3F000", "42P01", "42703"]);
function isCatalogRace(error: unknown, results: readonly MigrationResult[] | undefined): boolean {
  return (results ?? []).length === 0 && CATALOG_RACE_CODES.has((error as { code?: string } | null)?.code ?? "");
}

/** Apply every pending migration; returns the names applied, in order. */
export async function migrateToLatest(
  db: Kysely<Database>,
  onProgress?: (name: string) => void,
  schema?: string,
): Promise<string[]> {
  // The usual start: the table lists exactly the migrations this release knows. One read instead of Kysely's
  // catalog introspection, lock table and lock (start-up time, issue 17). Anything else (a pending migration,
  // one this release does not know) goes through the migrator, which applies or refuses as before.
  // A failing read falls through too, so failures are reported as they always were.
  const applied = await appliedMigrations(db, schema).catch(() => null);
  const known = Object.keys(migrations);
  if (applied?.length === known.length && known.every((name) => applied.includes(name))) return [];
  const migrator = createMigrator(db, schema);
  let { error, results } = await migrator.migrateToLatest();
  for (let attempt = 1; attempt < 4 && error && isCatalogRace(error, results); attempt++)
    ({ error, results } = await migrator.migrateToLatest());
  const done = (results ?? []).filter((r: MigrationResult) => r.status === "Success").map((r) => r.migrationName);
  for (const name of done) onProgress?.(name);
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new MigrationError(
      `migration ${failed ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`,
      failed,
      { cause: error },
    );
  }
  return done;
}

export async function migrationStatus(db: Kysely<Database>, schema?: string): Promise<MigrationStatus> {
  const all = await createMigrator(db, schema).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).map((m) => m.name),
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}

/**
 * The names in the migration table, read directly: Kysely's status check introspects the catalog of every
 * schema, which fails when another process drops a schema meanwhile (see CATALOG_RACE_CODES). No table: none.
 */
async function appliedMigrations(db: Kysely<Database>, schema: string | undefined): Promise<string[]> {
  const table = sql.table(schema ? `${schema}.authd_migration` : "authd_migration");
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    const missing =
      (error as { code?: string }).code === "42P01" || /no such table/i.test((error as Error).message ?? "");
    if (missing) return [];
    throw error;
  }
}

/**
 * Refuse a database authd did not migrate, or migrated by an older release: only `serve` and `migrate` change
 * the schema, so a command run from the wrong directory or against the wrong URL says what to run instead.
 */
export async function assertUpToDate(db: Kysely<Database>, schema: string | undefined, url: string): Promise<void> {
  const applied = await appliedMigrations(db, schema);
  const pending = Object.keys(migrations).filter((name) => !applied.includes(name));
  if (applied.length === 0)
    throw new DependencyError(
      describeTarget(url),
      "no authd tables in this database; run `authd migrate` first (or start `authd serve`), or fix AUTH_DATABASE_URL",
    );
  if (pending.length > 0)
    throw new DependencyError(
      describeTarget(url),
      `the database is not up to date (${pending.length} pending migration${pending.length > 1 ? "s" : ""}); run \`authd migrate\``,
    );
}
