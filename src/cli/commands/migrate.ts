import { withMigrations } from "../../platform/migrations.ts";
import { type CommonOptions, createCommand, loadCommandConfig, printJSON, progressReporter } from "../shared.ts";

const loadMigrationConfig = (options: CommonOptions) => loadCommandConfig(options, {}, { logLevel: "warn" });

export const migrateCommand = createCommand("migrate", "apply pending database migrations")
  .enablePositionalOptions()
  .option("--json", "print only JSON")
  .action(async (options: CommonOptions) => {
    await withMigrations(
      loadMigrationConfig(options),
      async (migrations) => {
        const progress = progressReporter(options);
        const { pending } = await migrations.status();
        if (pending.length > 0) progress(`applying ${pending.length} pending migration(s): ${pending.join(", ")}…`);
        const applied = await migrations.migrateToLatest((name) => progress(`applied ${name}`));
        if (options.json) printJSON({ applied });
        else
          process.stdout.write(
            applied.length ? `applied ${applied.length} migration(s)\n` : "database is up to date\n",
          );
      },
      { create: true },
    );
  });

migrateCommand
  .command("status")
  .description("list applied and pending migrations")
  .option("-c, --config <file>", "JSON config file (or AUTH_CONFIG)")
  .option("--json", "print only JSON")
  .action(async (options: CommonOptions) => {
    await withMigrations(loadMigrationConfig(options), async (migrations) => {
      const status = await migrations.status();
      if (options.json) return printJSON(status);
      for (const name of status.applied) process.stdout.write(`applied  ${name}\n`);
      for (const name of status.pending) process.stdout.write(`pending  ${name}\n`);
    });
  });
