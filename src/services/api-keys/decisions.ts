import type { AuthContext } from "../../context.ts";
import { constantTimeEqual } from "../../crypto/random.ts";
import { readJSONObject } from "../../db/json-column.ts";
import type * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import type { Permissions as ApiKeyPermissions } from "../../wire/api-key.ts";
import { isBanned } from "../users.ts";
import type { ApiKeyRefusal } from "./outcomes.ts";

// What a use of a key may do, decided from a row without writing anything: whether the key can be used at
// all (refusalOf), and what one use, or a block of uses at one instant, does to its counters (decideUsage,
// decideUses). Every way of counting (verification.ts, leases.ts, and the Redis script that mirrors
// decideUsage in redis-usage.ts) decides with these.

const DAY_MS = 86_400_000;

/** Every requested action of every requested resource must be held; asking for nothing grants nothing. */
export function holdsPermissions(held: ApiKeyPermissions | null, requested: ApiKeyPermissions): boolean {
  const entries = Object.entries(requested);
  if (!held || entries.length === 0) return false;
  return entries.every(([resource, actions]) => {
    const allowed = held[resource];
    return Array.isArray(allowed) && actions.every((action) => allowed.includes(action));
  });
}

export type UsageDecision =
  | { kind: "use"; next: apiKeys.ApiKeyUsage }
  | { kind: "refuse"; reason: ApiKeyRefusal; tryAgainIn?: number; deleteKey?: boolean };

/** What one more use of the key does to its counters, or why it is refused. Pure: reads `row`, writes nothing. */
export function decideUsage(ctx: AuthContext, row: ApiKeyRow, now: number): UsageDecision {
  let remaining = row.remaining === null ? null : Number(row.remaining);
  let lastRefillAt = row.lastRefillAt === null ? null : Number(row.lastRefillAt);
  if (remaining !== null) {
    if (remaining <= 0 && row.refillAmount === null)
      return { kind: "refuse", reason: "USAGE_EXCEEDED", deleteKey: true };
    const interval = row.refillInterval === null ? 0 : Number(row.refillInterval);
    if (
      interval > 0 &&
      row.refillAmount !== null &&
      now - (lastRefillAt ?? Number(row.createdAt)) > interval * DAY_MS
    ) {
      remaining = Number(row.refillAmount);
      lastRefillAt = now;
    }
    if (remaining <= 0) return { kind: "refuse", reason: "USAGE_EXCEEDED" };
    remaining -= 1;
  }

  let requestCount = Number(row.requestCount);
  let lastRequest = row.lastRequest === null ? null : Number(row.lastRequest);
  const window = row.rateLimitTimeWindow === null ? null : Number(row.rateLimitTimeWindow);
  const max = row.rateLimitMax === null ? null : Number(row.rateLimitMax);
  if (!ctx.config.apiKey.rateLimit.enabled || !row.rateLimitEnabled) {
    lastRequest = now;
  } else if (window !== null && max !== null) {
    const sinceLast = lastRequest === null ? null : now - lastRequest;
    if (sinceLast === null || sinceLast > window) requestCount = 1;
    else if (requestCount >= max)
      return { kind: "refuse", reason: "RATE_LIMITED", tryAgainIn: Math.ceil(window - sinceLast) };
    else requestCount += 1;
    lastRequest = now;
  }
  return { kind: "use", next: { requestCount, remaining, lastRequest, lastRefillAt } };
}

/**
 * What `wanted` uses at one instant do to the key's counters: as decideUsage applied `wanted` times at `now`
 * (at one instant no refill comes due and no window starts over between them), stopping at the first use
 * that would be refused. Refused only when the first use is; otherwise `granted` (1 to `wanted`) uses fit.
 */
export function decideUses(
  ctx: AuthContext,
  row: ApiKeyRow,
  now: number,
  wanted: number,
): { kind: "use"; granted: number; next: apiKeys.ApiKeyUsage } | Extract<UsageDecision, { kind: "refuse" }> {
  const first = decideUsage(ctx, row, now);
  if (first.kind === "refuse") return first;
  const next = first.next;
  let more = wanted - 1;
  if (next.remaining !== null) more = Math.min(more, Number(next.remaining));
  const windowed = rateMode(ctx, row) === "window";
  if (windowed) more = Math.min(more, Number(row.rateLimitMax) - Number(next.requestCount));
  more = Math.max(0, more);
  return {
    kind: "use",
    granted: 1 + more,
    next: {
      ...next,
      remaining: next.remaining === null ? null : Number(next.remaining) - more,
      requestCount: windowed ? Number(next.requestCount) + more : next.requestCount,
    },
  };
}

export type Refusal = { reason: ApiKeyRefusal; tryAgainIn?: number; deleteKey?: boolean };

/** Why the key cannot be used at all (its counters aside), or null. Pure. */
export function refusalOf(
  row: apiKeys.ApiKeyWithOwnerBan | undefined,
  storedKey: string,
  permissions: ApiKeyPermissions | undefined,
  now: number,
): Refusal | null {
  // Compare in constant time: the stored key is the secret (or its hash) the caller must match.
  if (!row || !constantTimeEqual(row.key, storedKey)) return { reason: "KEY_NOT_FOUND" };
  if (!row.enabled) return { reason: "KEY_DISABLED" };
  if (row.expiresAt !== null && now > Number(row.expiresAt)) return { reason: "KEY_EXPIRED", deleteKey: true };
  // A ban must reach every credential the user holds, not only sessions: refused before the use is
  // counted, and only while the ban is in force (an expired ban no longer stops the key).
  if (isBanned({ banned: row.ownerBanned, banExpires: row.ownerBanExpires }, now)) return { reason: "USER_IS_BANNED" };
  if (permissions && !holdsPermissions(readJSONObject<ApiKeyPermissions>(row.permissions), permissions))
    return { reason: "KEY_NOT_FOUND" };
  return null;
}

/** How a use moves the rate-window columns: counted in a window, only stamped, or not at all (decideUsage). */
export function rateMode(ctx: AuthContext, row: ApiKeyRow): "window" | "stamp" | "none" {
  if (!ctx.config.apiKey.rateLimit.enabled || !row.rateLimitEnabled) return "stamp";
  return row.rateLimitTimeWindow !== null && row.rateLimitMax !== null ? "window" : "none";
}

/** The row whose counters are the furthest along (usageVersion only grows), the later one on a tie. */
export function newest<R extends ApiKeyRow>(rows: R[]): R {
  return rows.reduce((best, row) => (Number(row.usageVersion) >= Number(best.usageVersion) ? row : best));
}

export const usageOf = (row: ApiKeyRow): apiKeys.ApiKeyUsage => ({
  requestCount: row.requestCount,
  remaining: row.remaining,
  lastRequest: row.lastRequest,
  lastRefillAt: row.lastRefillAt,
});
