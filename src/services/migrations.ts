import type { Config } from "../config/schema.ts";
import { openDatabase } from "../db/driver.ts";
import { type MigrationStatus, migrateToLatest, migrationStatus } from "../db/migrator.ts";

// `authd migrate` and `authd migrate status` work on the bare database: the full context (createContext)
// reads tables that migrations create, so it cannot be opened before they ran. Serving and the other
// commands migrate through createContext({ migrate: true }).

export type { MigrationStatus };

export interface Migrations {
  /** Applied and pending migrations, by name, in order. */
  status(): Promise<MigrationStatus>;
  /** Apply every pending migration, reporting each as it is applied; answers the names applied, in order. */
  migrateToLatest(onApplied?: (name: string) => void): Promise<string[]>;
}

/** Open the configured database for migrations only, run `work`, then close it. */
export async function withMigrations<T>(config: Config, work: (migrations: Migrations) => Promise<T>): Promise<T> {
  const handle = openDatabase(config.databaseURL, { poolSize: config.databasePoolSize });
  const { db, schema } = handle;
  try {
    return await work({
      status: () => migrationStatus(db, schema),
      migrateToLatest: (onApplied) => migrateToLatest(db, onApplied, schema),
    });
  } finally {
    await handle.close();
  }
}
