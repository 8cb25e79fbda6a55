// Outcomes of pure work (parsing a header, checking a signature, hashing a token) kept by their exact input,
// for the inputs a daemon sees over and over: an app's back end presents the same cookies and query on
// every request it forwards. At most `limit` are kept; when full, all are dropped and the set fills again
// (no bookkeeping per hit, and an attacker sending endless distinct inputs only makes each one cost what it
// would without the memo). Inputs longer than `longest` characters are never kept.

export class KeptOutcomes<V> {
  readonly #kept = new Map<string, V>();

  constructor(
    private readonly limit: number,
    private readonly longest: number,
  ) {}

  /** The outcome kept for `input`, else `work(input)`'s, kept unless it is undefined or the input too long. */
  get<R extends V | undefined>(input: string, work: (input: string) => R): V | R {
    const hit = this.#kept.get(input);
    if (hit !== undefined) return hit;
    const outcome = work(input);
    if (outcome === undefined || input.length > this.longest) return outcome;
    if (this.#kept.size >= this.limit) this.#kept.clear();
    this.#kept.set(input, outcome);
    return outcome;
  }

  get size(): number {
    return this.#kept.size;
  }
}
