import { once } from "node:events";
import { closeSync, fchmodSync, openSync, writeSync } from "node:fs";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { type AuditExportFormat, exportAuditLog } from "../../services/audit-export.ts";
import { type AuditFilter, countAuditLog } from "../../services/audit-log.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";
import { AuditFilterFlags, auditFilter, withAuditFilterOptions } from "./audit-filter.ts";

// `authd audit export`: the filtered audit log as CSV or JSON Lines (newest first), to standard output or a
// file, written a batch at a time as it is read. Progress goes to stderr, on a terminal only, once the export
// is more than one batch long.

const ExportFlags = AuditFilterFlags.extend({
  format: z.enum(["csv", "jsonl"], { message: "expected csv or jsonl" }).default("jsonl"),
  out: z.string().min(1).optional(),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

const BATCH = 500;

/** Where the export goes: each chunk written before the next is read (a slow pipe holds the reading back). */
export interface ExportSink {
  write(chunk: string): Promise<void>;
}

export interface ExportProgress {
  /** The number of events the filter matches, read before the export starts. */
  start(total: number): void;
  step(written: number, total: number): void;
  done(written: number): void;
}

/** Write the export to `sink`; returns how many events it holds. */
export async function writeAuditExport(
  ctx: AuthContext,
  filter: AuditFilter,
  format: AuditExportFormat,
  sink: ExportSink,
  progress?: ExportProgress,
): Promise<number> {
  const total = progress ? await countAuditLog(ctx, filter) : 0;
  progress?.start(total);
  let written = 0;
  const chunks = exportAuditLog(ctx, filter, format, {
    batchSize: BATCH,
    onProgress: (count) => {
      written = count;
      progress?.step(count, total);
    },
  });
  for await (const chunk of chunks) await sink.write(chunk);
  progress?.done(written);
  return written;
}

function stdoutSink(): ExportSink {
  return {
    async write(chunk) {
      if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
    },
  };
}

/** A new or emptied file only its owner can read: the log holds addresses and user agents. */
function fileSink(path: string): ExportSink & { close(): void } {
  let fd: number;
  try {
    fd = openSync(path, "w", 0o600);
    fchmodSync(fd, 0o600);
  } catch (error) {
    throw new UserError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return {
    async write(chunk) {
      writeSync(fd, chunk);
    },
    close: () => closeSync(fd),
  };
}

/** "exported 1500 of 20000 events" rewritten in place on a terminal; nothing for a single batch. */
function terminalProgress(): ExportProgress {
  let shown = false;
  return {
    start() {},
    step(written, total) {
      if (total <= BATCH) return;
      shown = true;
      process.stderr.write(`\rauthd: exported ${written} of ${total} events`);
    },
    done() {
      if (shown) process.stderr.write("\n");
    },
  };
}

export const auditExportCommand = withAuditFilterOptions(
  createCommand("export", "write the filtered audit log as CSV or JSON Lines, newest first"),
)
  .option("--format <format>", "jsonl (one event per line, as --json shows it) or csv (safe in a spreadsheet)", "jsonl")
  .option("-o, --out <file>", "write to this file (mode 0600) instead of standard output")
  .option("--json", "with --out: print only a JSON summary")
  .action(async (raw) => {
    const flags = parseFlags(ExportFlags, raw);
    await withContext(flags, async (ctx) => {
      const filter = await auditFilter(ctx, flags);
      const file = flags.out ? fileSink(flags.out) : null;
      const progress = process.stderr.isTTY ? terminalProgress() : undefined;
      let events: number;
      try {
        events = await writeAuditExport(ctx, filter, flags.format, file ?? stdoutSink(), progress);
      } finally {
        file?.close();
      }
      if (!flags.out) return;
      if (flags.json) printJSON({ output: flags.out, format: flags.format, events });
      else process.stdout.write(`wrote ${events} events to ${flags.out}\n`);
    });
  });
