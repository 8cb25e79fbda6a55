import type { SessionRow, UserRow } from "../db/schema.ts";

// The stores behind sessions/local-cache.ts and api-keys/rows.ts (which say when a copy may be served); kept
// apart so that the per-process state (in-process.ts) can hold them without importing the request context.

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

export interface CachedPair {
  session: SessionRow;
  user: UserRow;
}

export class LocalSessionCache extends ProvenCopies<CachedPair> {
  override set(tokenHash: string, found: CachedPair, stamp: ReadStamp, now: number): void {
    // Frozen: a caller changing the copy it was handed would otherwise change what later reads see.
    super.set(
      tokenHash,
      { session: Object.freeze({ ...found.session }), user: Object.freeze({ ...found.user }) },
      stamp,
      now,
    );
  }
}
