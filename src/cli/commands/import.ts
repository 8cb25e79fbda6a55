import { readFileSync } from "node:fs";
import * as z from "zod";
import { HASH_FORMATS } from "../../crypto/imported-hash-forms.ts";
import { hasProblems, type ImportReport, runImport } from "../../services/import/run.ts";
import { IMPORT_SOURCES, ImportSourceError, openSource } from "../../services/import/sources/index.ts";
import { writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";

// `authd import <source> FILE…` (issue 33): a dry run unless --commit; exit 2 when a dry run finds problems.

const ImportFlags = z.object({
  source: z.enum(IMPORT_SOURCES, { message: `expected one of ${IMPORT_SOURCES.join(", ")}` }),
  files: z.array(z.string().min(1)).min(1),
  commit: z.boolean().default(false),
  onConflict: z.enum(["skip", "merge", "fail"], { message: "expected skip, merge or fail" }).default("skip"),
  allowInsecureHashes: z.boolean().default(false),
  hashFormat: z.enum(HASH_FORMATS, { message: `expected one of ${HASH_FORMATS.join(", ")}` }).default("auto"),
  map: z.string().optional(),
  betterAuthSecretFile: z.string().min(1).optional(),
  hashConfig: z.string().min(1).optional(),
  report: z.enum(["text", "json"], { message: "expected text or json" }).default("text"),
  batchSize: z.coerce.number().int().min(1).max(10_000).default(500),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

function describe(report: ImportReport): string[] {
  const kinds = Object.entries(report.hashKinds)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  return [
    report.committed
      ? `imported from ${report.source}:`
      : `dry run of ${report.source} (nothing written; add --commit to import):`,
    `  records ${report.records}, new ${report.imported}, already imported ${report.unchanged}, merged ${report.merged}, conflicts ${report.conflicts}, refused ${report.refused}`,
    `  password hashes: ${kinds || "none"}${report.insecureHashes ? ` (${report.insecureHashes} insecure, upgraded at sign-in)` : ""}`,
    ...report.problems.map((p) => `  ${p.record}${p.email ? ` (${p.email})` : ""}: ${p.problem}`),
    ...(report.problemsNotListed ? [`  … and ${report.problemsNotListed} more problems`] : []),
  ];
}

function readSecretFile(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Progress on a terminal only: one line rewritten in place, cleared at the end. */
function terminalProgress(enabled: boolean) {
  const show = enabled && Boolean(process.stderr.isTTY);
  return {
    update(done: number, total: number | undefined) {
      if (show) process.stderr.write(`\r${done}${total === undefined ? "" : `/${total}`} records`);
    },
    end() {
      if (show) process.stderr.write("\r\x1b[K");
    },
  };
}

export const importCommand = createCommand(
  "import",
  "import users from another system or an authd export (dry run unless --commit)",
)
  .argument("<source>", `where the users come from: ${IMPORT_SOURCES.join(", ")}`)
  .argument("<files...>", "the source's files (or a database URL where the source takes one)")
  .option("--commit", "write the users (without it: a dry run that writes nothing)")
  .option("--on-conflict <policy>", "an email that exists already: skip, merge (both verified only) or fail", "skip")
  .option("--allow-insecure-hashes", "accept MD5, SHA-1 and phpass hashes (upgraded at the next sign-in)")
  .option("--hash-format <format>", `how password hashes are written: ${HASH_FORMATS.join(", ")}`, "auto")
  .option("--map <pairs>", "csv: column=field pairs, comma-separated (docs/import.md)")
  .option("--hash-config <file>", "firebase: the project's password hash parameters (JSON)")
  .option("--better-auth-secret-file <file>", "better-auth: a file holding the app's BETTER_AUTH_SECRET (carries TOTP)")
  .option("--report <format>", "text or json", "text")
  .option("--batch-size <n>", "records per transaction", "500")
  .option("--json", "print only the JSON report")
  .action(async (source: string, files: string[], raw) => {
    const flags = parseFlags(ImportFlags, { ...raw, source, files });
    const json = flags.json || flags.report === "json";
    const progress = terminalProgress(!json);
    const report = await withContext(flags, async (ctx) => {
      try {
        const betterAuthSecret = flags.betterAuthSecretFile ? readSecretFile(flags.betterAuthSecretFile) : null;
        const stream = await openSource(flags.source, flags.files, {
          map: flags.map,
          betterAuthSecret,
          hashConfig: flags.hashConfig,
        });
        return await runImport(ctx, stream, {
          source: flags.source,
          commit: flags.commit,
          onConflict: flags.onConflict,
          allowInsecureHashes: flags.allowInsecureHashes,
          hashFormat: flags.hashFormat,
          batchSize: flags.batchSize,
          progress: progress.update,
        });
      } catch (error) {
        if (error instanceof ImportSourceError) throw new UserError(error.message);
        throw error;
      } finally {
        progress.end();
      }
    });
    if (json) printJSON(report);
    else writeLines(...describe(report));
    if (flags.commit && !report.committed) {
      process.stderr.write(
        `authd: ${report.conflicts} emails belong to existing users (--on-conflict fail); nothing written\n`,
      );
      process.exitCode = 1;
    } else if (!flags.commit && hasProblems(report)) {
      process.stderr.write(
        "authd: the dry run found problems (listed above); fix them, or add --commit to import the rest\n",
      );
      process.exitCode = 2;
    }
  });
