import type { PrivateSigningKey, SigningAlgorithm } from "../crypto/jwt.ts";
import type { ApiKeyWithOwnerBan } from "../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../db/schema.ts";
import { LocalSessionCache, ProvenCopies } from "../platform/proven-copies.ts";
import type { ApiKeyUse, ApiKeyVerification, RedisUseOutcome } from "./api-keys/outcomes.ts";

// Coordination inside one daemon process: per-key queues and gates, and log lines limited per key. Each
// context holds its own (see createContext), so two contexts in one process (tests, a second daemon)
// never share a queue or a count.

interface Batch<I, O> {
  items: I[];
  settle: { resolve(value: O): void; reject(error: unknown): void }[];
}

/**
 * Work on one key in batches: while a batch of a key runs, later arrivals gather into the next one, which
 * starts when it ends; other keys do not wait. A batch never starts before any of its items arrived, so a
 * batched read is never older than a read of one's own would be.
 */
export class KeyedBatches<I, O, M = never> {
  readonly #waiting = new Map<string, Batch<I, O>>();
  readonly #running = new Set<string>();
  /** What a batch leaves for the next one of its key; forgotten once the key has no batch left. */
  readonly #memos = new Map<string, { value?: M }>();

  run(key: string, item: I, work: (items: I[], memo: { value?: M }) => Promise<O[]>): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let batch = this.#waiting.get(key);
      if (!batch) {
        batch = { items: [], settle: [] };
        this.#waiting.set(key, batch);
      }
      batch.items.push(item);
      batch.settle.push({ resolve, reject });
      if (!this.#running.has(key)) this.#next(key, work);
    });
  }

  #next(key: string, work: (items: I[], memo: { value?: M }) => Promise<O[]>): void {
    const batch = this.#waiting.get(key);
    if (!batch) {
      this.#memos.delete(key);
      return;
    }
    this.#waiting.delete(key);
    this.#running.add(key);
    let memo = this.#memos.get(key);
    if (!memo) {
      memo = {};
      this.#memos.set(key, memo);
    }
    work(batch.items, memo)
      .then(
        (results) => {
          for (const [index, settle] of batch.settle.entries()) settle.resolve(results[index]);
        },
        (error: unknown) => {
          for (const settle of batch.settle) settle.reject(error);
        },
      )
      .finally(() => {
        this.#running.delete(key);
        this.#next(key, work);
      });
  }
}

interface Gate {
  active: number;
  waiting: (() => void)[];
}

/** At most `limit` pieces of work on one key run at once; later ones wait their turn. */
export class KeyedGate {
  readonly #gates = new Map<string, Gate>();

  async run<T>(key: string, limit: number, work: () => Promise<T>): Promise<T> {
    let gate = this.#gates.get(key);
    if (!gate) {
      gate = { active: 0, waiting: [] };
      this.#gates.set(key, gate);
    }
    const held = gate;
    if (held.active < limit) held.active += 1;
    else await new Promise<void>((resolve) => held.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = held.waiting.shift();
      // The slot passes straight to the next waiter; the last one out removes the gate.
      if (next) next();
      else if (--held.active === 0) this.#gates.delete(key);
    }
  }
}

/**
 * What a rate-limited line adds: how many occurrences were held back since the previous line of its key,
 * and whether it speaks for every key beyond the followed ones (overflow).
 */
export interface LogSlot {
  suppressed: number;
  overflow: boolean;
}

// Lines an outsider can cause at will (refused origins, throttled accounts) are limited per key: one line per
// key and minute, the repeats in between counted and reported by the next line. At most MAX_KEYS keys are
// followed per kind; beyond that, all other keys share one line a minute, so varying the key floods nothing.
const LOG_INTERVAL_MS = 60_000;
const MAX_KEYS = 100;
const OVERFLOW_KEY = "\u0000overflow";

interface Slot {
  loggedAt: number;
  suppressed: number;
}

export class LogSlots {
  readonly #byKind = new Map<string, Map<string, Slot>>();

  /**
   * Whether a line for `key` may be written now; when it may, how many were held back since the last one.
   * Null means this occurrence is only counted.
   */
  claim(kind: string, key: string, now: number): LogSlot | null {
    let byKey = this.#byKind.get(kind);
    if (!byKey) {
      byKey = new Map();
      this.#byKind.set(kind, byKey);
    }
    if (!byKey.has(key) && byKey.size >= MAX_KEYS) {
      for (const [k, slot] of byKey) if (now - slot.loggedAt >= LOG_INTERVAL_MS) byKey.delete(k);
      if (byKey.size >= MAX_KEYS) key = OVERFLOW_KEY;
    }
    const slot = byKey.get(key);
    if (slot && now - slot.loggedAt < LOG_INTERVAL_MS) {
      slot.suppressed += 1;
      return null;
    }
    byKey.set(key, { loggedAt: now, suppressed: 0 });
    return { suppressed: slot?.suppressed ?? 0, overflow: key === OVERFLOW_KEY };
  }
}

/** Uses of API keys not in the database yet, and the writer that puts them there (api-key-usage.ts). */
export class ApiKeyUsageState {
  /** Key id → the latest `lastRequest` of its uses not written yet. */
  pending = new Map<string, number>();
  flushing: Promise<void> | null = null;
  reconciling: Promise<void> | null = null;
  timer: ReturnType<typeof setInterval> | null = null;
  /** Stop the writer and write what waits; set when the writer starts (the context's close calls it). */
  close: (() => Promise<void>) | null = null;
}

/** The in-process state of one context. */
export interface LocalState {
  /** API key rows read lately, while provably current (see api-key-rows.ts). */
  apiKeyRows: ProvenCopies<ApiKeyWithOwnerBan>;
  /** Concurrent lookups of one API key share a read (see api-key-rows.ts). */
  apiKeyReads: KeyedBatches<void, ApiKeyWithOwnerBan | undefined>;
  /** Concurrent uses of one limited API key share a read and a compare-and-set (see api-key-verification.ts). */
  apiKeyUses: KeyedBatches<ApiKeyUse, ApiKeyVerification, ApiKeyRow>;
  /** Concurrent uses of one limited API key share one Redis script (see api-key-redis-usage.ts). */
  apiKeyRedisUses: KeyedBatches<ApiKeyRow, RedisUseOutcome>;
  /** Uses of keys without limits waiting to be written (see api-key-usage.ts). */
  apiKeyUsage: ApiKeyUsageState;
  /** Password attempts on one account, a few at a time (see account-throttle.ts). */
  passwordAttempts: KeyedGate;
  logSlots: LogSlots;
  /** When expired API keys were last swept (ms), or null before the first sweep. */
  apiKeySweptAt: number | null;
  /** Warnings already written once (they would repeat on every request). */
  warned: Set<string>;
  /** The JWT signing key in use, read from the database now and then (see services/jwt/keys.ts). */
  jwtSigningKey: SigningKeyCache;
  /** JWTs signed in the last minute, by key and claims (see services/jwt/tokens.ts). */
  recentJWTs: Map<string, { token: string; issuedAt: number }>;
  /** Sessions read lately, while provably current (see local-session-cache.ts). */
  sessions: LocalSessionCache;
}

/** A loaded signing key and when it was read; `loading` lets concurrent first uses share one read. */
export interface SigningKeyCache {
  key: { id: string; alg: SigningAlgorithm; privateKey: PrivateSigningKey } | null;
  loadedAt: number;
  loading: Promise<unknown> | null;
}

export function createLocalState(): LocalState {
  return {
    apiKeyRows: new ProvenCopies(),
    apiKeyReads: new KeyedBatches(),
    apiKeyUses: new KeyedBatches(),
    apiKeyRedisUses: new KeyedBatches(),
    apiKeyUsage: new ApiKeyUsageState(),
    passwordAttempts: new KeyedGate(),
    logSlots: new LogSlots(),
    apiKeySweptAt: null,
    warned: new Set(),
    jwtSigningKey: { key: null, loadedAt: 0, loading: null },
    recentJWTs: new Map(),
    sessions: new LocalSessionCache(),
  };
}
