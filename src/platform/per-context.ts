// State kept in one daemon process: queues, gates, copies of rows, log-line counts. Each feature owns its
// own piece, declared next to the code that uses it with `perContext(create, close)`; the context only holds
// the store the pieces live in (AuthContext.local). A piece is made on first use, so two contexts in one
// process (tests, a second daemon) never share a queue, a count or a copy, and a context that never used a
// feature holds nothing of it.

type Close<T> = (value: T) => Promise<void>;

/** One context's per-process state: the pieces its features made, and how to close those that need it. */
export class LocalState {
  readonly #pieces = new Map<object, unknown>();
  readonly #closers: (() => Promise<void>)[] = [];

  /** The piece under `key`, made by `create` on first use; `close` runs when the context closes. */
  piece<T>(key: object, create: () => T, close?: Close<T>): T {
    if (this.#pieces.has(key)) return this.#pieces.get(key) as T;
    const value = create();
    this.#pieces.set(key, value);
    if (close) this.#closers.push(() => close(value));
    return value;
  }

  /**
   * Close the pieces that need it (API-key usage written behind), in the order they were made. The context's
   * close calls this before it closes the database. A closer never throws (it logs its own failure), so one
   * failing keeps neither the others nor the database open.
   */
  async close(): Promise<void> {
    for (const close of this.#closers) await close();
  }
}

/** Something that holds a LocalState: the context, or a transaction's copy of it (which shares the store). */
export interface HasLocalState {
  local: LocalState;
}

/**
 * Declare a piece of per-process state: the returned function gives a context's piece, made by `create` the
 * first time that context asks. `close` (optional) runs once the context closes.
 */
export function perContext<T>(create: () => T, close?: Close<T>): (holder: HasLocalState) => T {
  const key = {};
  return (holder) => holder.local.piece(key, create, close);
}
