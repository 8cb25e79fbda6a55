import type { AuthContext } from "../../context.ts";
import { constantTimeEqual } from "../../crypto/random.ts";
import { readJSONObject } from "../../db/json-column.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import { KeyedBatches } from "../../platform/keyed-work.ts";
import { perContext } from "../../platform/per-context.ts";
import { isBanned } from "../users.ts";
import { type ApiKeyPermissions, storedFormOfKey } from "./api-keys.ts";
import { scheduleExpiredApiKeyCleanup } from "./cleanup.ts";
import type { ApiKeyRefusal, ApiKeyUse, ApiKeyVerification, RedisUseOutcome } from "./outcomes.ts";
import { countUsesInRedis } from "./redis-usage.ts";
import { findKeyRow, forgetApiKeyRows, noteKeyCounters } from "./rows.ts";
import { recordUnlimitedUse, startApiKeyUsageWriter } from "./usage.ts";

// Verifying a key is a use of it: it spends one of `remaining` and counts in the key's rate window.
// Three ways to count, by what the key has and what is configured (docs/api-keys.md, "How uses are counted"):
// - no limits: the `lastRequest` stamp is written behind the answer (api-keys/usage.ts);
// - limits and Redis: one atomic script per use in Redis, copied into the row now and then
//   (api-keys/redis-usage.ts);
// - limits without Redis: a compare-and-set of the row (updateApiKeyUsageIfUnchanged), one per batch of
//   concurrent uses in this process, so concurrent uses are counted exactly on both dialects and across
//   daemons without holding a lock across round trips.

const DAY_MS = 86_400_000;
/** Each attempt loses only to a writer that succeeded, so this bounds the work, not correctness. */
const MAX_ATTEMPTS = 64;

/**
 * Concurrent uses of one limited key in this process share a read and a compare-and-set; the uses that
 * arrive in two turns of the event loop gather into one batch (group commit: KeyedBatches' `gather`). On
 * SQLite every batch starts that way, and its write transaction costs about 70 µs under load (file locks,
 * the WAL append), so a second turn's uses joining it raised a hot key's verifications by about 11 %
 * (bench/README.md, "Speed, round five"). On Postgres a key's next batch starts when the previous one's
 * write returns, with whatever arrived meanwhile, so the turns matter only after a pause.
 */
const usesInBatch = perContext(
  () => new KeyedBatches<ApiKeyUse, ApiKeyVerification, ApiKeyRow>({ gather: true, turns: 2 }),
);
/**
 * Concurrent uses of one limited key in this process share one Redis script, gathered the same way. Up to
 * REDIS_BATCHES_IN_FLIGHT scripts of a key are in flight at once: the script decides from the counters in
 * Redis, not from what this process read, so a batch need not wait for the one before it, and Redis runs
 * one connection's scripts in the order sent, so uses are still decided in arrival order. Their round trips
 * then overlap the handling of other requests (measured: +8 % verifications a second, bench/README.md).
 */
const REDIS_BATCHES_IN_FLIGHT = 4;
const usesInRedis = perContext(
  () => new KeyedBatches<ApiKeyRow, RedisUseOutcome>({ gather: true, depth: REDIS_BATCHES_IN_FLIGHT }),
);

export type { ApiKeyRefusal, ApiKeyUse, ApiKeyVerification };

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
    const row = await findKeyRow(ctx, storedKey);
    const now = ctx.now();
    const refusal = refusalOf(row, storedKey, permissions, now);
    if (refusal) return refuse(ctx, row, refusal);
    if (!row) return { valid: false, reason: "KEY_NOT_FOUND" };
    const mode = rateMode(ctx, row);
    if (row.remaining === null && mode !== "window") return countUnlimitedUse(ctx, row, now);
    if (ctx.secondaryStorage) return await countWithRedis(ctx, row);
    // Uses of one key inside this process share one read and one compare-and-set per batch, instead of a
    // storm of retries; the compare-and-set still guards against other processes.
    return await usesInBatch(ctx).run(storedKey, { permissions, row }, (uses, last) =>
      countInBatch(ctx, storedKey, uses, last),
    );
  } finally {
    scheduleExpiredApiKeyCleanup(ctx);
  }
}

/** An expired or spent key goes on sight. */
async function deleteKeyRow(ctx: AuthContext, keyId: string): Promise<void> {
  await apiKeys.deleteApiKeyById(ctx.db, keyId);
  await forgetApiKeyRows(ctx, ctx.db);
}

type Refusal = { reason: ApiKeyRefusal; tryAgainIn?: number; deleteKey?: boolean };

/** Why the key cannot be used at all (its counters aside), or null. Pure. */
function refusalOf(
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

async function refuse(ctx: AuthContext, row: ApiKeyRow | undefined, refusal: Refusal): Promise<ApiKeyVerification> {
  if (refusal.deleteKey && row) await deleteKeyRow(ctx, row.id);
  return { valid: false, reason: refusal.reason, tryAgainIn: refusal.tryAgainIn };
}

/** How a use moves the rate-window columns: counted in a window, only stamped, or not at all (decideUsage). */
function rateMode(ctx: AuthContext, row: ApiKeyRow): "window" | "stamp" | "none" {
  if (!ctx.config.apiKey.rateLimit.enabled || !row.rateLimitEnabled) return "stamp";
  return row.rateLimitTimeWindow !== null && row.rateLimitMax !== null ? "window" : "none";
}

/** A key without limits: nothing in the answer depends on its counters, so the stamp is written behind. */
function countUnlimitedUse(ctx: AuthContext, row: ApiKeyRow, now: number): ApiKeyVerification {
  if (rateMode(ctx, row) === "none") return { valid: true, row };
  recordUnlimitedUse(ctx, row.id, now);
  return { valid: true, row: { ...row, lastRequest: now } };
}

async function countWithRedis(ctx: AuthContext, row: ApiKeyRow): Promise<ApiKeyVerification> {
  const storage = ctx.secondaryStorage;
  if (!storage) throw new Error("countWithRedis without Redis");
  startApiKeyUsageWriter(ctx);
  // Concurrent uses of one key in this process are decided in turn by one script call.
  const outcome = await usesInRedis(ctx).run(row.id, row, async (rows) => {
    const known = newest(rows);
    const outcomes = await countUsesInRedis(storage, known, ctx.now(), rateMode(ctx, known), rows.length, false);
    if (outcomes) return outcomes;
    // Redis has no counters for the key yet (or lost them): they start from the row as the database has it now.
    const fresh = await apiKeys.findApiKeyByStoredKey(ctx.db, known.key);
    if (!fresh) return rows.map((): RedisUseOutcome => ({ kind: "gone" }));
    const seeded = await countUsesInRedis(storage, fresh, ctx.now(), rateMode(ctx, fresh), rows.length, true);
    if (!seeded) throw new Error("Redis refused to seed API key counters from a fresh row");
    return seeded;
  });
  if (outcome.kind === "use") return { valid: true, row: { ...row, ...outcome.usage } };
  if (outcome.kind === "rate-limited") return { valid: false, reason: "RATE_LIMITED", tryAgainIn: outcome.tryAgainIn };
  if (outcome.kind === "gone") return { valid: false, reason: "KEY_NOT_FOUND" };
  return refuse(ctx, row, { reason: "USAGE_EXCEEDED", deleteKey: outcome.deleteKey });
}

/**
 * Whether the compare-and-set may commit without waiting for Postgres's WAL flush (apiKey.usageWrites
 * "fast"). SQLite already commits without a flush (WAL, `synchronous = normal`: safe from a daemon's crash).
 */
function unflushedUsageWrites(ctx: AuthContext): boolean {
  return ctx.config.apiKey.usageWrites === "fast" && ctx.database.dialect === "postgres";
}

/** The row whose counters are the furthest along (usageVersion only grows), the later one on a tie. */
function newest<R extends ApiKeyRow>(rows: R[]): R {
  return rows.reduce((best, row) => (Number(row.usageVersion) >= Number(best.usageVersion) ? row : best));
}

const usageOf = (row: ApiKeyRow): apiKeys.ApiKeyUsage => ({
  requestCount: row.requestCount,
  remaining: row.remaining,
  lastRequest: row.lastRequest,
  lastRefillAt: row.lastRefillAt,
});

/**
 * One batch of uses of a key: decided in arrival order on one read of the row, written with one
 * compare-and-set from the counters read to the counters after the last use. Lost to another process's
 * write, the whole batch reads again and decides again. `last` keeps the row this process wrote last:
 * when it is further along than the batch's lookups (which may have started before that write), its
 * counters are the better guess for the compare-and-set.
 */
async function countInBatch(
  ctx: AuthContext,
  storedKey: string,
  uses: ApiKeyUse[],
  last: { value?: ApiKeyRow },
): Promise<ApiKeyVerification[]> {
  let row: apiKeys.ApiKeyWithOwnerBan | undefined = newest(uses.map((use) => use.row));
  if (last.value && row && Number(last.value.usageVersion) > Number(row.usageVersion))
    row = { ...row, ...usageOf(last.value), usageVersion: last.value.usageVersion };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      row = await apiKeys.findApiKeyByStoredKey(ctx.db, storedKey);
      if (row) noteKeyCounters(ctx, storedKey, row);
    }
    const now = ctx.now();
    const results: ApiKeyVerification[] = [];
    let counters: ApiKeyRow | undefined = row;
    let used = false;
    let deleteKey = false;
    for (const use of uses) {
      const refusal = refusalOf(row, storedKey, use.permissions, now);
      const decision = refusal || !counters ? null : decideUsage(ctx, counters, now);
      const refused = refusal ?? (decision?.kind === "refuse" ? decision : null);
      if (refused || !decision || decision.kind !== "use" || !counters) {
        deleteKey ||= refused?.deleteKey === true;
        results.push({ valid: false, reason: refused?.reason ?? "KEY_NOT_FOUND", tryAgainIn: refused?.tryAgainIn });
        continue;
      }
      counters = { ...counters, ...decision.next };
      results.push({ valid: true, row: counters });
      used = true;
    }
    if (used && row && counters) {
      const updated = await apiKeys.updateApiKeyUsageIfUnchanged(
        ctx.db,
        row.id,
        usageOf(row),
        usageOf(counters),
        unflushedUsageWrites(ctx),
      );
      if (!updated) continue;
      last.value = updated;
      noteKeyCounters(ctx, storedKey, updated);
    }
    if (deleteKey && row) await deleteKeyRow(ctx, row.id);
    return results;
  }
  return uses.map(() => ({ valid: false, reason: "FAILED_TO_UPDATE_API_KEY" }));
}
