import { closeSync, fchmodSync, openSync, writeSync } from "node:fs";
import * as z from "zod";
import { exportLines } from "../../services/import/export.ts";
import { exportCsvLines } from "../../services/import/export-csv.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";

// `authd export` (issue 33): every user in authd.v1 JSON Lines. Secrets (password hashes, TOTP secrets,
// backup codes) only with --include-secrets, and then only into a file only its owner can read.

const ExportFlags = z.object({
  output: z.string().min(1).optional(),
  includeSecrets: z.boolean().default(false),
  format: z.enum(["jsonl", "csv"], { message: "expected jsonl or csv" }).default("jsonl"),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

/** Open the output: a new or emptied file with mode 0600 (also when it existed with another mode). */
function openOutput(path: string): number {
  try {
    const fd = openSync(path, "w", 0o600);
    fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    throw new UserError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export const exportCommand = createCommand(
  "export",
  "write every user in authd's interchange format (authd.v1 JSON Lines)",
)
  .option("-o, --output <file>", "write to this file (mode 0600) instead of standard output")
  .option(
    "--format <format>",
    "jsonl (authd.v1, the default) or csv (plain fields only, safe to open in a spreadsheet)",
    "jsonl",
  )
  .option("--include-secrets", "include password hashes, TOTP secrets and backup codes (needs --output)")
  .option("--json", "with --output: print only a JSON summary")
  .action(async (raw) => {
    const flags = parseFlags(ExportFlags, raw);
    if (flags.includeSecrets && !flags.output)
      throw new UserError("--include-secrets writes only to a file: add --output FILE", 2);
    if (flags.includeSecrets && flags.format === "csv")
      throw new UserError("--include-secrets is for authd.v1 (--format jsonl); a CSV export never holds secrets", 2);
    await withContext(flags, async (ctx) => {
      const fd = flags.output ? openOutput(flags.output) : null;
      let users = -1;
      try {
        const lines =
          flags.format === "csv" ? exportCsvLines(ctx) : exportLines(ctx, { includeSecrets: flags.includeSecrets });
        for await (const line of lines) {
          if (fd === null) process.stdout.write(`${line}\n`);
          else writeSync(fd, `${line}\n`);
          users += 1;
        }
      } finally {
        if (fd !== null) closeSync(fd);
      }
      if (!flags.output) return;
      if (flags.json) printJSON({ output: flags.output, users, secrets: flags.includeSecrets });
      else process.stdout.write(`wrote ${users} users to ${flags.output}\n`);
      if (flags.includeSecrets)
        process.stderr.write(
          `authd: ${flags.output} holds password hashes and TOTP secrets; it is readable by its owner only (0600)\n`,
        );
    });
  });
