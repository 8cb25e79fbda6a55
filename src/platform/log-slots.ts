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
