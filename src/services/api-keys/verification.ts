import type { AuthContext } from "../../context.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import { KeyedBatches } from "../../platform/keyed-work.ts";
import { perContext } from "../../platform/per-context.ts";
import type { ApiKeyPermissions } from "./api-keys.ts";
import { scheduleExpiredApiKeyCleanup } from "./cleanup.ts";
import { decideUsage, newest, type Refusal, rateMode, refusalOf, usageOf } from "./decisions.ts";
import { countLeasedUse, leasesUses } from "./leases.ts";
import type { ApiKeyRefusal, ApiKeyUse, ApiKeyVerification, RedisUseOutcome } from "./outcomes.ts";
import { countUsesInRedis } from "./redis-usage.ts";
import { deleteKeyRow, findKeyRow, noteKeyCounters, storedFormOfPresentedKey } from "./rows.ts";
import { recordUnlimitedUse, startApiKeyUsageWriter } from "./usage.ts";

// Verifying a key is a use of it: it spends one of `remaining` and counts in the key's rate window.
// Three ways to count, by what the key has and what is configured (docs/api-keys.md, "How uses are counted"):
// - no limits: the `lastRequest` stamp is written behind the answer (api-keys/usage.ts);
// - limits and Redis: one atomic script per use in Redis, copied into the row now and then
//   (api-keys/redis-usage.ts);
// - limits without Redis: a compare-and-set of the row (updateApiKeyUsageIfUnchanged), one per batch of
//   concurrent uses in this process, so concurrent uses are counted exactly on both dialects and across
//   daemons without holding a lock across round trips.

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
  const storedKey = storedFormOfPresentedKey(ctx, key);
  try {
    const row = await findKeyRow(ctx, storedKey);
    const now = ctx.now();
    const refusal = refusalOf(row, storedKey, permissions, now);
    if (refusal) return refuse(ctx, row, refusal);
    if (!row) return { valid: false, reason: "KEY_NOT_FOUND" };
    const mode = rateMode(ctx, row);
    if (row.remaining === null && mode !== "window") return countUnlimitedUse(ctx, row, now);
    if (ctx.secondaryStorage) return await countWithRedis(ctx, row);
    if (leasesUses(ctx)) return await countLeasedUse(ctx, storedKey, { permissions, row });
    // Uses of one key inside this process share one read and one compare-and-set per batch, instead of a
    // storm of retries; the compare-and-set still guards against other processes.
    return await usesInBatch(ctx).run(storedKey, { permissions, row }, (uses, last) =>
      countInBatch(ctx, storedKey, uses, last),
    );
  } finally {
    scheduleExpiredApiKeyCleanup(ctx);
  }
}

async function refuse(ctx: AuthContext, row: ApiKeyRow | undefined, refusal: Refusal): Promise<ApiKeyVerification> {
  if (refusal.deleteKey && row) await deleteKeyRow(ctx, row.id);
  return { valid: false, reason: refusal.reason, tryAgainIn: refusal.tryAgainIn };
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
