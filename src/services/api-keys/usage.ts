import type { AuthContext } from "../../context.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import { LogSlots } from "../../platform/log-slots.ts";
import { perContext } from "../../platform/per-context.ts";
import { reconcileRedisApiKeyUsage } from "./redis-usage.ts";

// Usage of API keys written behind the answer.
//
// A key without limits (no `remaining`, no rate window in force) only has its `lastRequest` stamped by a
// use: nothing about the answer depends on it, so the stamp waits in memory, one per key (the latest), and
// is written once a second and when the context closes (the daemon's shutdown closes it before the
// database). A SIGKILL loses at most the stamps of the last second: `lastRequest` is then older than the
// last use by at most FLUSH_INTERVAL_MS; the key's `remaining` and rate window are unaffected (it has none).
//
// The same tick copies the exact counters Redis keeps for keys with limits into the database
// (api-keys/redis-usage.ts); there nothing is lost to a kill, Redis holds the truth.

export const FLUSH_INTERVAL_MS = 1000;

/** Uses of keys not in the database yet, and the writer that puts them there. */
class UsageState {
  /** Key id → the latest `lastRequest` of its uses not written yet. */
  pending = new Map<string, number>();
  flushing: Promise<void> | null = null;
  reconciling: Promise<void> | null = null;
  timer: ReturnType<typeof setInterval> | null = null;
  /** Stop the writer and write what waits; set when the writer starts (the context's close calls it). */
  close: (() => Promise<void>) | null = null;
  /** The writer's failures, one line a minute per message. */
  readonly logSlots = new LogSlots();
}

/** This context's usage; closing the context stops the writer and writes what waits, before the database closes. */
const usage = perContext(
  () => new UsageState(),
  async (state) => {
    await state.close?.();
  },
);

/** Start the once-a-second writer of this context (idempotent; stopped by closeApiKeyUsage). */
export function startApiKeyUsageWriter(ctx: AuthContext): void {
  const state = usage(ctx);
  if (state.timer) return;
  // While the database or Redis is down the writes fail every second: one line a minute says so.
  const failed = (message: string) => (error: unknown) => {
    const slot = state.logSlots.claim("api-key-usage", message, Date.now());
    if (slot) ctx.logger.error(message, { error, repeated: slot.suppressed });
  };
  state.timer = setInterval(() => {
    flushApiKeyUsage(ctx).catch(failed("writing API key usage failed; retrying"));
    if (ctx.secondaryStorage)
      reconcileApiKeyUsage(ctx).catch(failed("copying API key usage from Redis failed; retrying"));
  }, FLUSH_INTERVAL_MS);
  state.timer.unref?.();
  state.close = () =>
    closeApiKeyUsage(ctx).catch((error: unknown) =>
      ctx.logger.error("writing API key usage on close failed", { error }),
    );
}

/** A use of a key without limits: remember its stamp, written within FLUSH_INTERVAL_MS. */
export function recordUnlimitedUse(ctx: AuthContext, keyId: string, lastRequest: number): void {
  const { pending } = usage(ctx);
  const known = pending.get(keyId);
  if (known === undefined || known < lastRequest) pending.set(keyId, lastRequest);
  startApiKeyUsageWriter(ctx);
}

/** The stamp of `keyId` waiting in this process, if any (reads show it before it is written). */
export function pendingLastRequest(ctx: AuthContext, keyId: string): number | undefined {
  return usage(ctx).pending.get(keyId);
}

/** Write every waiting stamp now. A failed write puts its stamps back, to be tried on the next tick. */
export async function flushApiKeyUsage(ctx: AuthContext): Promise<void> {
  const state = usage(ctx);
  while (state.flushing) await state.flushing;
  if (state.pending.size === 0) return;
  const batch = state.pending;
  state.pending = new Map();
  const rateLimitsApply = ctx.config.apiKey.rateLimit.enabled;
  state.flushing = (async () => {
    const written: string[] = [];
    try {
      for (const [keyId, lastRequest] of batch) {
        await apiKeys.stampApiKeyLastRequest(ctx.db, keyId, lastRequest, rateLimitsApply);
        written.push(keyId);
      }
    } catch (error) {
      for (const keyId of written) batch.delete(keyId);
      for (const [keyId, lastRequest] of batch) {
        const known = state.pending.get(keyId);
        if (known === undefined || known < lastRequest) state.pending.set(keyId, lastRequest);
      }
      throw error;
    }
  })();
  try {
    await state.flushing;
  } finally {
    state.flushing = null;
  }
}

/** Copy the Redis counters of keys with limits into the database, one pass at a time in this process. */
export async function reconcileApiKeyUsage(ctx: AuthContext): Promise<void> {
  const state = usage(ctx);
  if (state.reconciling) return state.reconciling;
  state.reconciling = reconcileRedisApiKeyUsage(ctx).finally(() => {
    state.reconciling = null;
  });
  return state.reconciling;
}

/** Stop the writer and write what waits (the context's close calls this before closing the database). */
export async function closeApiKeyUsage(ctx: AuthContext): Promise<void> {
  const state = usage(ctx);
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  await flushApiKeyUsage(ctx);
  if (ctx.secondaryStorage) {
    await state.reconciling?.catch(() => {});
    await reconcileApiKeyUsage(ctx);
  }
}
