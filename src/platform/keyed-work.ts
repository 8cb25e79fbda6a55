// Work on one key, coordinated inside one process: batches that share a read, and gates that let a few
// through at a time. A feature keeps its queues and gates per context (see per-context.ts), so two contexts
// in one process (tests, a second daemon) never share a queue.

interface Batch<I, O> {
  items: I[];
  settle: { resolve(value: O): void; reject(error: unknown): void }[];
}

/**
 * Work on one key in batches: while a batch of a key runs, later arrivals gather into the next one, which
 * starts when it ends; other keys do not wait. A batch never starts before any of its items arrived, so a
 * batched read is never older than a read of one's own would be.
 *
 * With `gather`, a key's batch starts on the next turn of the event loop instead of at once, so every
 * request the server handed over in this turn joins it. That is group commit for work that does not wait
 * long on its own (a SQLite write answers before the next request is even parsed, so without it every
 * batch held one item); it costs one turn of latency. With `turns: 2` the batch waits one turn more, so the
 * requests of the next turn join it too: for work whose every batch pays a fixed cost much larger than an
 * item's (a SQLite write transaction under load: api-keys/verification.ts).
 *
 * With `depth` n > 1 (and `gather`), up to n batches of a key run at once: arrivals while fewer than n run
 * start the next one on the next turn instead of waiting for a running one to end. That overlaps a key's
 * round trips to Redis with the handling of other requests. The work must then be safe to run beside an
 * earlier batch of its key and keep its order itself (API-key uses in Redis: one script each, run in the
 * order one connection sent them). Batches start in arrival order either way.
 */
export class KeyedBatches<I, O, M = never> {
  readonly #waiting = new Map<string, Batch<I, O>>();
  /** Batches of a key running, or about to start on the next turn (counted from when it is scheduled). */
  readonly #running = new Map<string, number>();
  /** Keys whose next batch is scheduled for the next turn: arrivals until then join it. */
  readonly #scheduled = new Set<string>();
  /** What a batch leaves for the next one of its key; forgotten once the key has no batch left. */
  readonly #memos = new Map<string, { value?: M }>();
  readonly #depth: number;
  readonly #turns: number;

  constructor(private readonly options: { gather?: boolean; depth?: number; turns?: 1 | 2 } = {}) {
    this.#depth = options.gather ? Math.max(1, options.depth ?? 1) : 1;
    this.#turns = options.turns ?? 1;
  }

  run(key: string, item: I, work: (items: I[], memo: { value?: M }) => Promise<O[]>): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let batch = this.#waiting.get(key);
      if (!batch) {
        batch = { items: [], settle: [] };
        this.#waiting.set(key, batch);
      }
      batch.items.push(item);
      batch.settle.push({ resolve, reject });
      if (this.#scheduled.has(key) || (this.#running.get(key) ?? 0) >= this.#depth) return;
      if (!this.options.gather) return this.#next(key, work);
      // Counted as running until the next turn starts it, so the arrivals of this turn only join.
      this.#running.set(key, (this.#running.get(key) ?? 0) + 1);
      this.#scheduled.add(key);
      const start = () => {
        this.#scheduled.delete(key);
        this.#start(key, work);
      };
      if (this.#turns > 1) setImmediate(() => setImmediate(start));
      else setImmediate(start);
    });
  }

  /** Start the key's waiting batch, if any, in a running slot already counted. */
  #start(key: string, work: (items: I[], memo: { value?: M }) => Promise<O[]>): void {
    const batch = this.#waiting.get(key);
    if (!batch) {
      this.#end(key, work);
      return;
    }
    this.#waiting.delete(key);
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
      .finally(() => this.#end(key, work));
  }

  /** A running slot of the key is free: the waiting batch takes it, or it is given up. */
  #end(key: string, work: (items: I[], memo: { value?: M }) => Promise<O[]>): void {
    if (this.#waiting.has(key) && !this.#scheduled.has(key)) {
      this.#start(key, work);
      return;
    }
    const left = (this.#running.get(key) ?? 1) - 1;
    if (left > 0) this.#running.set(key, left);
    else {
      this.#running.delete(key);
      if (!this.#waiting.has(key)) this.#memos.delete(key);
    }
  }

  #next(key: string, work: (items: I[], memo: { value?: M }) => Promise<O[]>): void {
    this.#running.set(key, (this.#running.get(key) ?? 0) + 1);
    this.#start(key, work);
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
