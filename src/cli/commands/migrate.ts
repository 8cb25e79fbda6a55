import type { Kysely } from "kysely";
import { openDatabase } from "../../db/driver.ts";
import { migrateToLatest, migrationStatus } from "../../db/migrator.ts";
import type { Database } from "../../db/schema.ts";
import { createCommand, loadCommandConfig, printJSON, progressReporter, type CommonOptions } from "../shared.ts";

/** Migrations work on the bare database: the full context reads tables that migrations create. */
async function withMigrationContext<T>(options: CommonOptions, work: (handle: { db: Kysely<Database>; schema?: string }) => Promise<T>): Promise<T> {
  const config = loadCommandConfig(options, {}, { logLevel: "warn" });
  const handle = openDatabase(config.databaseURL, { poolSize: config.databasePoolSize });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

export const migrateCommand = createCommand("migrate", "apply pending database migrations")
  .enablePositionalOptions()
  .option("--json", "print only JSON")
  .action(async (options: CommonOptions) => {
    await withMigrationContext(options, async ({ db, schema }) => {
      const progress = progressReporter(options);
      const { pending } = await migrationStatus(db, schema);
      if (pending.length > 0) progress(`applying ${pending.length} pending migration(s): ${pending.join(", ")}…`);
      const applied = await migrateToLatest(db, (name) => progress(`applied ${name}`), schema);
      if (options.json) printJSON({ applied });
      else process.stdout.write(applied.length ? `applied ${applied.length} migration(s)\n` : "database is up to date\n");
    });
  });

migrateCommand
  .command("status")
  .description("list applied and pending migrations")
  .option("-c, --config <file>", "JSON config file (or AUTH_CONFIG)")
  .option("--json", "print only JSON")
  .action(async (options: CommonOptions) => {
    await withMigrationContext(options, async ({ db, schema }) => {
      const status = await migrationStatus(db, schema);
      if (options.json) return printJSON(status);
      for (const name of status.applied) process.stdout.write(`applied  ${name}\n`);
      for (const name of status.pending) process.stdout.write(`pending  ${name}\n`);
    });
  });
