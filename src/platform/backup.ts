import { constants, copyFileSync, existsSync, statSync } from "node:fs";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { openDatabase } from "../db/driver.ts";
import { migrationStatus } from "../db/migrator.ts";
import type { Database } from "../db/schema.ts";

// Backups (issue 33). SQLite: `VACUUM INTO` writes a consistent copy of the database while the daemon keeps
// serving (it reads one snapshot), and a restore copies such a file where the configuration points, which must
// hold nothing yet. Postgres has its own tools; what to run is spelled out for the operator.

export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefused";
  }
}

/** The SQLite file a `sqlite://` URL names (null for Postgres or an in-memory database). */
export function sqlitePathOf(url: string): string | null {
  if (!url.startsWith("sqlite://")) return null;
  const path = url.slice("sqlite://".length);
  return path === ":memory:" ? null : path;
}

/** A consistent copy of the live SQLite database at `path` (which must not exist); its size in bytes. */
export async function backupSqlite(db: Kysely<Database>, path: string): Promise<number> {
  if (existsSync(path)) throw new BackupRefused(`${path} exists; choose a new file (a backup never overwrites)`);
  await sql`vacuum into ${path}`.execute(db);
  return statSync(path).size;
}

/** Postgres URL without its password, and the schema authd uses (`?schema=`), for the commands shown. */
function describePostgres(url: string): { target: string; schema: string | null } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  if (parsed.password) parsed.password = "PASSWORD";
  return { target: parsed.toString(), schema };
}

export function postgresBackupAdvice(url: string, file: string): string {
  const { target, schema } = describePostgres(url);
  return `on Postgres use pg_dump, which takes a consistent snapshot while authd runs: pg_dump --format=custom${schema ? ` --schema=${schema}` : ""} --file=${file} '${target}'`;
}

export function postgresRestoreAdvice(url: string, file: string): string {
  const { target } = describePostgres(url);
  return `on Postgres use pg_restore into an empty database: pg_restore --no-owner --dbname='${target}' ${file}, then authd migrate`;
}

/**
 * Copy the backup at `source` to `target` (the configured SQLite file, which must not exist yet), after
 * checking it is a whole authd database. How many migrations it had applied.
 */
export async function restoreSqlite(source: string, target: string): Promise<number> {
  if (!existsSync(source)) throw new BackupRefused(`no backup at ${source}`);
  if (existsSync(target))
    throw new BackupRefused(
      `${target} exists; restore only into an empty data directory (move the old database away first)`,
    );
  const handle = openDatabase(`sqlite://${source}`, { create: false });
  try {
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(handle.db).catch(() => null);
    if (check?.rows[0]?.integrity_check !== "ok") throw new BackupRefused(`${source} is not a sound SQLite database`);
    const { applied } = await migrationStatus(handle.db);
    if (applied.length === 0) throw new BackupRefused(`${source} holds no authd database`);
    copyFileSync(source, target, constants.COPYFILE_EXCL);
    return applied.length;
  } finally {
    await handle.close();
  }
}
