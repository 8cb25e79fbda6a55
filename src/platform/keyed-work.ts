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
 * With `gather`, a key's first batch (none running) starts on the next turn of the event loop instead of at
 * once, so every request the server handed over in this turn joins it. That is group commit for work that
 * does not wait long on its own (a SQLite write answers before the next request is even parsed, so without
 * it every batch held one item); it costs one turn of latency.
 */
export class KeyedBatches<I, O, M = never> {
  readonly #waiting = new Map<string, Batch<I, O>>();
  readonly #running = new Set<string>();
  /** What a batch leaves for the next one of its key; forgotten once the key has no batch left. */
  readonly #memos = new Map<string, { value?: M }>();

  constructor(private readonly options: { gather?: boolean } = {}) {}

  run(key: string, item: I, work: (items: I[], memo: { value?: M }) => Promise<O[]>): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let batch = this.#waiting.get(key);
      if (!batch) {
        batch = { items: [], settle: [] };
        this.#waiting.set(key, batch);
      }
      batch.items.push(item);
      batch.settle.push({ resolve, reject });
      if (this.#running.has(key)) return;
      if (!this.options.gather) return this.#next(key, work);
      // Held as running until the next turn starts it, so the arrivals of this turn only join.
      this.#running.add(key);
      setImmediate(() => this.#next(key, work));
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
