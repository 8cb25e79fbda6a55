import type { SessionRow, UserRow } from "../db/schema.ts";

// The store behind local-session-cache.ts (which says when a copy may be served); kept apart so that the
// per-process state (in-process.ts) can hold one without importing the request context.

const MAX_ENTRIES = 10_000;

export interface CachedPair {
  session: SessionRow;
  user: UserRow;
}

interface Entry extends CachedPair {
  epoch: number;
  version: number;
  storedAt: number;
}

/** When a read started: the copy it makes is good only while both are unchanged. */
export interface ReadStamp {
  epoch: number;
  version: number;
}

export class LocalSessionCache {
  readonly #entries = new Map<string, Entry>();
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

  get(tokenHash: string, current: ReadStamp, now: number, maxAgeMs: number): CachedPair | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.epoch !== current.epoch || entry.version !== current.version || now - entry.storedAt >= maxAgeMs) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  set(tokenHash: string, found: CachedPair, stamp: ReadStamp, now: number): void {
    if (stamp.epoch !== this.#epoch) return;
    if (this.#entries.size >= MAX_ENTRIES && !this.#entries.has(tokenHash)) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    // Frozen: a caller changing the copy it was handed would otherwise change what later reads see.
    this.#entries.set(tokenHash, {
      session: Object.freeze({ ...found.session }),
      user: Object.freeze({ ...found.user }),
      epoch: stamp.epoch,
      version: stamp.version,
      storedAt: now,
    });
  }
}
