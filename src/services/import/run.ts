import type { AuthContext } from "../../context.ts";
import { dummyLike, type ImportedHash } from "../../crypto/imported-hash.ts";
import type { HashFormat } from "../../crypto/imported-hash-forms.ts";
import { refreshImportStatistics } from "../../db/repositories/import-batch.ts";
import { FingerprintSet } from "../../platform/fingerprint-set.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { rememberSlowestImportedHash } from "../imported-passwords.ts";
import type { V1Header } from "./format.ts";
import { type PreparedRecord, prepareRecord } from "./prepare.ts";
import type { ConflictPolicy, Outcome } from "./write.ts";
import { classifyBatch, writeBatch } from "./write-batch.ts";

// An import run (issue 33): every record of a source is checked, counted and classified; with `commit`
// the records are written in batches, each batch one transaction. A dry run writes nothing.

/** One record of a source, or why it could not be read. */
export type SourceRecord =
  | { position: string; record: unknown; problem?: undefined }
  | { position: string; problem: string };

/** What a source reader hands over: its header (when it has one) and its records, read on demand. */
export interface RecordStream {
  header: Pick<V1Header, "hashConfigs"> & { users?: number };
  /** A fresh pass over the records each call (a commit that may fail on a conflict reads twice). */
  records(): AsyncIterable<SourceRecord>;
}

export interface ImportOptions {
  source: string;
  commit: boolean;
  onConflict: ConflictPolicy;
  allowInsecureHashes: boolean;
  hashFormat?: HashFormat;
  batchSize?: number;
  /** Called after each batch (or every `batchSize` records of a dry run) with the records done and the total, if known. */
  progress?: (done: number, total: number | undefined) => void;
}

export interface ImportProblem {
  record: string;
  email?: string;
  problem: string;
}

export interface ImportReport {
  source: string;
  committed: boolean;
  records: number;
  /** Would be (dry run) or were imported as new users. */
  imported: number;
  /** Imported by an earlier run from the same source: nothing changes. */
  unchanged: number;
  merged: number;
  /** Records whose email belongs to an existing user (skipped, or the reason a `fail` run stopped). */
  conflicts: number;
  refused: number;
  hashKinds: Record<string, number>;
  insecureHashes: number;
  problems: ImportProblem[];
  /** Problems beyond the first MAX_LISTED, counted only. */
  problemsNotListed: number;
}

const MAX_LISTED = 1000;

function emptyReport(source: string): ImportReport {
  return {
    source,
    committed: false,
    records: 0,
    imported: 0,
    unchanged: 0,
    merged: 0,
    conflicts: 0,
    refused: 0,
    hashKinds: {},
    insecureHashes: 0,
    problems: [],
    problemsNotListed: 0,
  };
}

function addProblem(report: ImportReport, problem: ImportProblem): void {
  if (report.problems.length < MAX_LISTED) report.problems.push(problem);
  else report.problemsNotListed += 1;
}

function count(report: ImportReport, record: PreparedRecord, outcome: Outcome): void {
  const problem = (text: string) => addProblem(report, { record: record.position, email: record.email, problem: text });
  if (outcome.kind === "conflict") {
    report.conflicts += 1;
    problem(outcome.problem);
    return;
  }
  if (outcome.kind === "refused") {
    report.refused += 1;
    problem(outcome.problem);
    return;
  }
  report[outcome.kind] += 1;
  const kind = record.password?.kind ?? "none";
  report.hashKinds[kind] = (report.hashKinds[kind] ?? 0) + 1;
  if (record.imported && ["md5", "sha1", "phpass"].includes(record.imported.kind)) report.insecureHashes += 1;
}

/** Whether a run found anything the operator should look at (a dry run then exits 2). */
export function hasProblems(report: ImportReport): boolean {
  return report.problems.length + report.problemsNotListed > 0;
}

async function pass(ctx: AuthContext, stream: RecordStream, options: ImportOptions, write: boolean) {
  const report = emptyReport(options.source);
  const batchSize = options.batchSize ?? 500;
  const shapes = new Map<string, ImportedHash>();
  // Addresses seen so far in this run, as fingerprints: a million take 16 MiB, not 180 (memory stays flat).
  const emails = new FingerprintSet();
  const prepareOptions = {
    nativeHashes: options.source === "authd",
    allowInsecureHashes: options.allowInsecureHashes,
    hashFormat: options.hashFormat ?? "auto",
    header: stream.header,
  };
  let batch: PreparedRecord[] = [];
  let batches = 0;
  let nextStatistics = 2;
  const flush = async () => {
    const run = async (db: AuthContext["db"], tx: AuthContext) => {
      const outcomes = write
        ? await writeBatch(tx, db, options.source, batch, options.onConflict)
        : await classifyBatch(db, options.source, batch, options.onConflict);
      for (const [index, record] of batch.entries()) {
        const outcome = outcomes[index];
        count(report, record, outcome);
        if (record.imported && outcome.kind === "imported")
          shapes.set(dummyLike(record.imported, Buffer.alloc), record.imported);
      }
    };
    if (write) await withTransaction(ctx, (tx) => run(tx.db, tx));
    else await run(ctx.db, ctx);
    batches += 1;
    // After the 2nd, 8th, 32nd … batch: the tables have grown fourfold since the planner last looked.
    if (write && ctx.database.dialect === "postgres" && batches === nextStatistics) {
      await refreshImportStatistics(ctx.db);
      nextStatistics *= 4;
    }
    batch = [];
    options.progress?.(report.records, stream.header.users);
  };
  for await (const item of stream.records()) {
    report.records += 1;
    const { position } = item;
    if (item.problem !== undefined) {
      report.refused += 1;
      addProblem(report, { record: position, problem: item.problem });
      continue;
    }
    const prepared = prepareRecord(item.record, position, prepareOptions);
    if (!prepared.ok) {
      report.refused += 1;
      addProblem(report, { record: position, email: prepared.email, problem: prepared.problem });
      continue;
    }
    if (emails.has(prepared.record.email)) {
      report.refused += 1;
      addProblem(report, {
        record: position,
        email: prepared.record.email,
        problem: "email appears earlier in this import",
      });
      continue;
    }
    emails.add(prepared.record.email);
    batch.push(prepared.record);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (write && shapes.size > 0) await rememberSlowestImportedHash(ctx.db, shapes.values());
  report.committed = write;
  return report;
}

/**
 * Run an import: a dry run by default; with `commit`, the records are written (after a first, dry pass
 * when `onConflict` is `fail`, so that a conflict stops the run before anything is written).
 */
export async function runImport(ctx: AuthContext, stream: RecordStream, options: ImportOptions): Promise<ImportReport> {
  if (!options.commit) return pass(ctx, stream, options, false);
  if (options.onConflict === "fail") {
    const dry = await pass(ctx, stream, options, false);
    if (dry.conflicts > 0) return dry;
  }
  return pass(ctx, stream, options, true);
}
