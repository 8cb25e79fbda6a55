// Durations and rates as operators write them on the command line: 30d, 12h, 15m, 90s, 500ms; 1000/1h.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `90s`, `15m`, `12h`, `30d`, `500ms`; a bare number is in `bareUnit`. Null when unreadable. */
export function parseDuration(text: string, bareUnit: keyof typeof UNIT_MS): number | null {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]) * UNIT_MS[match[2] ?? bareUnit];
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** `N/PERIOD` (`1000/1h`, `60/m`): a count and a period in milliseconds. Null when unreadable. */
export function parseRate(text: string): { count: number; periodMs: number } | null {
  const match = /^(\d+)\/(\d*)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return null;
  const count = Number(match[1]);
  const periodMs = parseDuration(`${match[2] || "1"}${match[3]}`, "s");
  return count >= 1 && Number.isSafeInteger(count) && periodMs ? { count, periodMs } : null;
}

/** `10 per 1d`, `1000 per 1h`: a count per period, the period in its largest whole unit. */
export function describeRate(count: number, periodMs: number): string {
  const [unit, size] = Object.entries(UNIT_MS)
    .reverse()
    .find(([, ms]) => periodMs % ms === 0) ?? ["ms", 1];
  return `${count} per ${periodMs / size}${unit}`;
}
