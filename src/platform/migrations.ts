import type { Config } from "../config/schema.ts";
import { openDatabase } from "../db/driver.ts";
import { type MigrationStatus, migrateToLatest, migrationStatus } from "../db/migrator.ts";
import { dependencyError } from "../dependencies.ts";

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

/**
 * Open the configured database for migrations only, run `work`, then close it. `create`: a missing SQLite file
 * may be created (`authd migrate`; `migrate status` only reads).
 */
export async function withMigrations<T>(
  config: Config,
  work: (migrations: Migrations) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const handle = openDatabase(config.databaseURL, {
    poolSize: config.databasePoolSize,
    create: options.create ?? false,
  });
  const { db, schema } = handle;
  try {
    await handle.ping().catch((error: unknown) => {
      throw dependencyError(config.databaseURL, error);
    });
    return await work({
      status: () => migrationStatus(db, schema),
      migrateToLatest: (onApplied) => migrateToLatest(db, onApplied, schema),
    });
  } finally {
    await handle.close();
  }
}
