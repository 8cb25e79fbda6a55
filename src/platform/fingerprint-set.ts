// A set of many strings in little memory: each is kept as a 64-bit fingerprint (wyhash) in two typed arrays
// with open addressing, 8 bytes a member at most half full, against about 180 bytes for a string in a Set.
// Two different strings share a fingerprint with a chance of about n² / 2⁶⁵ (1 in 30 million for a million
// members), so it answers "seen" for a string it has not seen only that rarely; where that matters, the
// caller says so.

export class FingerprintSet {
  #high: Uint32Array;
  #low: Uint32Array;
  #size = 0;

  constructor(capacity = 1024) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.#high = new Uint32Array(slots);
    this.#low = new Uint32Array(slots);
  }

  get size(): number {
    return this.#size;
  }

  /** Add `text`; false when it (or a string with its fingerprint) was there already. */
  add(text: string): boolean {
    if (this.#size * 2 >= this.#high.length) this.#grow();
    const [high, low] = fingerprint(text);
    const slot = this.#find(high, low);
    if (this.#high[slot] === high && this.#low[slot] === low) return false;
    this.#high[slot] = high;
    this.#low[slot] = low;
    this.#size += 1;
    return true;
  }

  has(text: string): boolean {
    const [high, low] = fingerprint(text);
    const slot = this.#find(high, low);
    return this.#high[slot] === high && this.#low[slot] === low;
  }

  /** The slot holding this fingerprint, or the empty one where it would go. */
  #find(high: number, low: number): number {
    const mask = this.#high.length - 1;
    let slot = low & mask;
    while (this.#high[slot] !== 0 || this.#low[slot] !== 0) {
      if (this.#high[slot] === high && this.#low[slot] === low) return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  #grow(): void {
    const high = this.#high;
    const low = this.#low;
    this.#high = new Uint32Array(high.length * 2);
    this.#low = new Uint32Array(low.length * 2);
    for (let slot = 0; slot < high.length; slot++)
      if (high[slot] !== 0 || low[slot] !== 0) {
        const to = this.#find(high[slot], low[slot]);
        this.#high[to] = high[slot];
        this.#low[to] = low[slot];
      }
  }
}

/** The string's 64-bit wyhash as two 32-bit halves, never both zero (zero marks an empty slot). */
function fingerprint(text: string): [number, number] {
  const hash = BigInt(Bun.hash.wyhash(text));
  const high = Number((hash >> 32n) & 0xffffffffn);
  const low = Number(hash & 0xffffffffn);
  return high === 0 && low === 0 ? [0, 1] : [high, low];
}
