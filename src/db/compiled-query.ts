import { type Compilable, CompiledQuery } from "kysely";
import type { Db } from "./schema.ts";

// Hot-path statements compiled once. Building and compiling a Kysely query costs more than running it
// (about 70 µs for the session lookup against 30 µs for SQLite to answer it), so a statement read on every
// request is built once per dialect with marked parameters, and each call binds the real values into the
// compiled SQL. Only scalar parameters: a value that changes the SQL's shape (a list for `in`, a null that
// becomes `is null`) needs a query built per call.

const MARK = "\u0000authd-parameter:";

type Slot = { parameter: number } | { constant: unknown };

interface Compiled {
  sql: string;
  slots: Slot[];
}

export type Scalar = string | number | boolean | null;

/** Runs a statement at once, or answers undefined when it must queue (db/sqlite-dialect.ts `runIfFree`). */
type DirectRunner = (sql: string, values: readonly unknown[]) => unknown[] | undefined;

/** Databases (never a transaction: it has its own Kysely object) whose hot statements may skip Kysely's round. */
const directRunners = new WeakMap<object, DirectRunner>();

/** Let `db`'s compiled-once statements run through `runner` when it can (SQLite: db/driver.ts). */
export function runDirectlyWhenFree(db: Db, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/** The runner `db`'s compiled-once statements skip Kysely with, if any (bench/in-process.ts counts through it). */
export function directRunnerOf(db: Db): DirectRunner | undefined {
  return directRunners.get(db);
}

/**
 * `build(db, ...marks)` describes the statement; the result runs it with the given values in place of the
 * marks. Compiled once per dialect adapter: a transaction shares its database's adapter, so it reuses it.
 */
export function compiledOnce<P extends Scalar[], R>(
  build: (db: Db, ...parameters: { [K in keyof P]: P[K] }) => Compilable<R>,
): (db: Db, ...parameters: P) => Promise<R[]> {
  const byAdapter = new WeakMap<object, Compiled>();
  const compile = (db: Db, arity: number): Compiled => {
    const marks = Array.from({ length: arity }, (_, index) => `${MARK}${index}`) as unknown as P;
    const compiled = build(db, ...marks).compile();
    const slots = compiled.parameters.map((value): Slot => {
      if (typeof value === "string" && value.startsWith(MARK)) return { parameter: Number(value.slice(MARK.length)) };
      return { constant: value };
    });
    const used = new Set(slots.flatMap((slot) => ("parameter" in slot ? [slot.parameter] : [])));
    if (used.size !== arity) throw new Error(`compiledOnce: the statement uses ${used.size} of ${arity} parameters`);
    return { sql: compiled.sql, slots };
  };
  return async (db, ...parameters) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      compiled = compile(db, parameters.length);
      byAdapter.set(adapter, compiled);
    }
    const values = compiled.slots.map((slot) => ("parameter" in slot ? parameters[slot.parameter] : slot.constant));
    const now = directRunners.get(db)?.(compiled.sql, values);
    if (now) return now as R[];
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, values));
    return result.rows;
  };
}
