import type { ChangeSignal } from "../db/change-signal.ts";
import type { Db } from "../db/schema.ts";
import { afterCommit } from "./transaction.ts";

// Copies of rows kept in one process's memory, each served only while provably current: the store behind
// services/sessions/local-cache.ts and services/api-keys/rows.ts (which say when a copy may be served), and
// forgetCopies, which every write of the rows they keep calls.

const MAX_ENTRIES = 10_000;

/** When a read started: the copy it makes is good only while both are unchanged. */
export interface ReadStamp {
  epoch: number;
  version: number;
}

interface Entry<T> {
  value: T;
  epoch: number;
  version: number;
  storedAt: number;
}

/** Copies of rows, each served only under the stamp its read started with and for at most maxAge. */
export class ProvenCopies<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #epoch = 0;

  get epoch(): number {
    return this.#epoch;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drop every copy, and make every read in flight unable to store one. */
  invalidate(): void {
    this.#epoch += 1;
    this.#entries.clear();
  }

  get(key: string, current: ReadStamp, now: number, maxAgeMs: number): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== current.epoch || entry.version !== current.version || now - entry.storedAt >= maxAgeMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, stamp: ReadStamp, now: number): void {
    if (stamp.epoch !== this.#epoch) return;
    if (this.#entries.size >= MAX_ENTRIES && !this.#entries.has(key)) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, epoch: stamp.epoch, version: stamp.version, storedAt: now });
  }

  /** Replace a copy's value under its stamp (this process's own write moved part of it); undefined keeps it. */
  revise(key: string, change: (value: T) => T | undefined): void {
    const entry = this.#entries.get(key);
    const revised = entry && change(entry.value);
    if (entry && revised) entry.value = revised;
  }
}

/**
 * After a write through `db` of rows `stores` keep: drop them at once (read-your-writes here) and again
 * when the writer's transaction commits (a read between the two saw the old row), and tell every other
 * process (on Postgres a NOTIFY through `db`, delivered at commit).
 */
export async function forgetCopies(
  ctx: { database: { changes: ChangeSignal } },
  db: Db,
  ...stores: ProvenCopies<unknown>[]
): Promise<void> {
  const forget = () => {
    for (const copies of stores) copies.invalidate();
  };
  forget();
  afterCommit(db, forget);
  await ctx.database.changes.announce(db);
}
