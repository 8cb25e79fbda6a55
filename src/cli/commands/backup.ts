import { existsSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod";
import {
  BackupRefused,
  backupSqlite,
  postgresBackupAdvice,
  postgresRestoreAdvice,
  restoreSqlite,
  sqlitePathOf,
} from "../../platform/backup.ts";
import { withMigrations } from "../../platform/migrations.ts";
import { createCommand, loadCommandConfig, parseFlags, printJSON, UserError, withContext } from "../shared.ts";

// `authd backup FILE` and `authd restore FILE` (issue 33): SQLite here, Postgres by its own tools.

const Flags = z.object({ file: z.string().min(1), json: z.boolean().optional(), config: z.string().optional() });

const refusal = (error: unknown) => (error instanceof BackupRefused ? new UserError(error.message) : error);

export const backupCommand = createCommand("backup", "write a consistent copy of the SQLite database while authd runs")
  .argument("<file>", "the new backup file (never overwritten)")
  .option("--json", "print only JSON")
  .action(async (file: string, raw) => {
    const flags = parseFlags(Flags, { ...raw, file });
    const config = loadCommandConfig(flags, {}, { logLevel: "warn" });
    if (!sqlitePathOf(config.databaseURL)) {
      if (config.databaseURL.startsWith("sqlite://"))
        throw new UserError("an in-memory database has nothing to back up");
      throw new UserError(postgresBackupAdvice(config.databaseURL, flags.file));
    }
    if (!existsSync(dirname(flags.file))) throw new UserError(`directory ${dirname(flags.file)} does not exist`);
    const bytes = await withContext(flags, (ctx) =>
      backupSqlite(ctx.db, flags.file).catch((e) => Promise.reject(refusal(e))),
    );
    if (flags.json) printJSON({ backup: flags.file, bytes });
    else process.stdout.write(`wrote a backup to ${flags.file} (${bytes} bytes)\n`);
  });

export const restoreCommand = createCommand(
  "restore",
  "put a backup in place of a SQLite database that does not exist yet",
)
  .argument("<file>", "a file `authd backup` wrote")
  .option("--json", "print only JSON")
  .action(async (file: string, raw) => {
    const flags = parseFlags(Flags, { ...raw, file });
    const config = loadCommandConfig(flags, {}, { logLevel: "warn" });
    const target = sqlitePathOf(config.databaseURL);
    if (!target) {
      if (config.databaseURL.startsWith("sqlite://")) throw new UserError("cannot restore into an in-memory database");
      throw new UserError(postgresRestoreAdvice(config.databaseURL, flags.file));
    }
    const migrations = await restoreSqlite(flags.file, target).catch((e) => Promise.reject(refusal(e)));
    // A backup made by an older authd is brought up to this version's schema.
    const applied = await withMigrations(config, (m) => m.migrateToLatest());
    if (flags.json) printJSON({ restored: target, migrations, applied });
    else
      process.stdout.write(
        `restored ${flags.file} to ${target}${applied.length ? ` and applied ${applied.length} migration(s)` : ""}\n`,
      );
  });
