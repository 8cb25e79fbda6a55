import type { AuthContext } from "../context.ts";
import { constantTimeEqual } from "../crypto/random.ts";
import { readJSONObject } from "../db/json-column.ts";
import * as apiKeys from "../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../db/schema.ts";
import { type ApiKeyPermissions, scheduleExpiredApiKeyCleanup, storedFormOfKey } from "./api-keys.ts";
import { isBanned } from "./users.ts";

// Verifying a key is a use of it: it spends one of `remaining` and counts in the key's rate window.
// The counters are written with a compare-and-set (see updateApiKeyUsageIfUnchanged), so concurrent
// uses are counted exactly on both dialects without holding a lock across round trips.

const DAY_MS = 86_400_000;
/** Each attempt loses only to a writer that succeeded, so this bounds the work, not correctness. */
const MAX_ATTEMPTS = 64;

export type ApiKeyRefusal =
  | "INVALID_API_KEY"
  | "KEY_NOT_FOUND"
  | "KEY_DISABLED"
  | "KEY_EXPIRED"
  | "USER_IS_BANNED"
  | "USAGE_EXCEEDED"
  | "RATE_LIMITED"
  | "FAILED_TO_UPDATE_API_KEY";

export type ApiKeyVerification =
  | { valid: true; row: ApiKeyRow }
  | { valid: false; reason: ApiKeyRefusal; tryAgainIn?: number };

/** Every requested action of every requested resource must be held; asking for nothing grants nothing. */
export function holdsPermissions(held: ApiKeyPermissions | null, requested: ApiKeyPermissions): boolean {
  const entries = Object.entries(requested);
  if (!held || entries.length === 0) return false;
  return entries.every(([resource, actions]) => {
    const allowed = held[resource];
    return Array.isArray(allowed) && actions.every((action) => allowed.includes(action));
  });
}

type UsageDecision =
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
 * Verify a presented key and count the use. Order of checks: length, existence, enabled, expiry (an
 * expired key is deleted on sight), the owner's ban, permissions, usage limit (with refill), rate window.
 */
export async function verifyApiKey(
  ctx: AuthContext,
  key: string,
  permissions?: ApiKeyPermissions,
): Promise<ApiKeyVerification> {
  if (key.length < ctx.config.apiKey.defaultKeyLength) return { valid: false, reason: "INVALID_API_KEY" };
  const storedKey = storedFormOfKey(ctx, key);
  try {
    // Uses of one key inside this process take turns, so a hot key costs one read and one write per use
    // instead of a storm of compare-and-set retries. The compare-and-set still guards against other processes.
    return await ctx.local.apiKeyUses.run(storedKey, () => useKey(ctx, storedKey, permissions));
  } finally {
    scheduleExpiredApiKeyCleanup(ctx);
  }
}

async function useKey(
  ctx: AuthContext,
  storedKey: string,
  permissions?: ApiKeyPermissions,
): Promise<ApiKeyVerification> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await apiKeys.findApiKeyByStoredKey(ctx.db, storedKey);
    // Compare in constant time: the stored key is the secret (or its hash) the caller must match.
    if (!row || !constantTimeEqual(row.key, storedKey)) return { valid: false, reason: "KEY_NOT_FOUND" };
    if (!row.enabled) return { valid: false, reason: "KEY_DISABLED" };
    const now = ctx.now();
    if (row.expiresAt !== null && now > Number(row.expiresAt)) {
      await apiKeys.deleteApiKeyById(ctx.db, row.id);
      return { valid: false, reason: "KEY_EXPIRED" };
    }
    // A ban must reach every credential the user holds, not only sessions: refused before the use is
    // counted, and only while the ban is in force (an expired ban no longer stops the key).
    if (isBanned({ banned: row.ownerBanned, banExpires: row.ownerBanExpires }, now))
      return { valid: false, reason: "USER_IS_BANNED" };
    if (permissions && !holdsPermissions(readJSONObject<ApiKeyPermissions>(row.permissions), permissions))
      return { valid: false, reason: "KEY_NOT_FOUND" };
    const decision = decideUsage(ctx, row, now);
    if (decision.kind === "refuse") {
      if (decision.deleteKey) await apiKeys.deleteApiKeyById(ctx.db, row.id);
      return { valid: false, reason: decision.reason, tryAgainIn: decision.tryAgainIn };
    }
    const expected = {
      requestCount: row.requestCount,
      remaining: row.remaining,
      lastRequest: row.lastRequest,
      lastRefillAt: row.lastRefillAt,
    };
    const updated = await apiKeys.updateApiKeyUsageIfUnchanged(ctx.db, row.id, expected, decision.next);
    if (updated) return { valid: true, row: updated };
  }
  return { valid: false, reason: "FAILED_TO_UPDATE_API_KEY" };
}
