import type { AuthContext } from "../../context.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import { KeyedBatches } from "../../platform/keyed-work.ts";
import { LogSlots } from "../../platform/log-slots.ts";
import { perContext } from "../../platform/per-context.ts";
import { decideUsage, decideUses, newest, rateMode, refusalOf, usageOf } from "./decisions.ts";
import type { ApiKeyUse, ApiKeyVerification } from "./outcomes.ts";
import { deleteKeyRow, noteKeyCounters } from "./rows.ts";

// Leased uses (apiKey.usageWrites "leased", Postgres without Redis; docs/api-keys.md, "How uses are counted").
//
// A daemon takes a block of a limited key's uses from the row with one compare-and-set, as if they had all
// been used (`remaining` down by the block, the window's count up by it), and answers the key's next uses
// from the block in memory, with no write. What is left of a block when its time is up (LEASE_MS, less for a
// short rate window), when the key is edited, or when the daemon shuts down is given back to the row
// (returnLeasedApiKeyUses). A block is sized by how fast the key was used: a key used now and then leases one
// use at a time and is counted exactly as with "durable"; a hot key's blocks double while they run out before
// their time is up. A block never takes more than a quarter of what the key has left beyond the uses waiting.
//
// What bends, against "durable": uses leased by one daemon count as spent for the others until they are
// given back (at most LEASE_MS plus a writer tick), and a daemon killed with a block loses its unused rest
// (the key counts uses it never answered). Never the other way: no key answers more uses than its limits
// allow. With a rate window, the row's `lastRequest` is stamped with the end of the block's time, so another
// daemon never starts the window over while the block may still be used.

/** How long a block may be used before what is left of it goes back. */
export const LEASE_MS = 1000;
/** The largest block. */
export const MAX_LEASE = 65_536;
/** Each attempt loses only to a writer that succeeded, so this bounds the work, not correctness. */
const MAX_ATTEMPTS = 64;

interface Lease {
  keyId: string;
  /** The key as leased: an edit (`updatedAt`) voids the block; a refill since (`lastRefillAt`) keeps its rest. */
  updatedAt: number;
  lastRefillAt: number | null;
  expiresAt: number;
  /** The rate window (ms) whose slots the block holds, or 0 (they go back only while it cannot have ended). */
  window: number;
  granted: number;
  unused: number;
  lastUse: number | null;
  /** The counters as written when the block was taken: every use of the block spent. */
  counters: apiKeys.ApiKeyUsage;
}

class LeaseState {
  /** Key id → this daemon's latest block of that key (kept a while after it ends, to size the next). */
  readonly leases = new Map<string, Lease>();
  /** Give-backs in flight (closing waits for them). */
  readonly returning = new Set<Promise<unknown>>();
  readonly logSlots = new LogSlots();
  context: AuthContext | null = null;
  timer: ReturnType<typeof setInterval> | null = null;
  /** Uses of one key waiting for a block share its compare-and-set. */
  readonly batches = new KeyedBatches<ApiKeyUse, ApiKeyVerification>({ gather: true });
}

const state = perContext(
  () => new LeaseState(),
  async (leases) => {
    if (leases.timer) clearInterval(leases.timer);
    leases.timer = null;
    for (const lease of leases.leases.values()) giveBack(leases, lease);
    leases.leases.clear();
    await Promise.all(leases.returning);
  },
);

/** Whether this context counts limited keys' uses in leased blocks. */
export function leasesUses(ctx: AuthContext): boolean {
  return ctx.config.apiKey.usageWrites === "leased" && ctx.database.dialect === "postgres" && !ctx.secondaryStorage;
}

/** A block that may answer uses of the key as `row` shows it now. */
function usable(lease: Lease | undefined, row: ApiKeyRow, now: number): lease is Lease {
  return lease !== undefined && lease.unused > 0 && now < lease.expiresAt && lease.updatedAt === Number(row.updatedAt);
}

/** Verify a use of a limited key: from this daemon's block at once, or by leasing one. */
export function countLeasedUse(
  ctx: AuthContext,
  storedKey: string,
  use: ApiKeyUse,
): Promise<ApiKeyVerification> | ApiKeyVerification {
  const leases = state(ctx);
  leases.context ??= ctx;
  const now = ctx.now();
  const lease = leases.leases.get(use.row.id);
  if (usable(lease, use.row, now)) return answerFromLease(lease, use.row, now);
  return leases.batches.run(storedKey, use, (uses) => leaseForBatch(ctx, leases, storedKey, uses));
}

/** One use from the block; the answer shows the key's counters with the block's rest not spent yet. */
function answerFromLease(lease: Lease, row: ApiKeyRow, now: number): ApiKeyVerification {
  lease.unused -= 1;
  lease.lastUse = now;
  const { counters } = lease;
  const shown: apiKeys.ApiKeyUsage = {
    remaining: counters.remaining === null ? null : Number(counters.remaining) + lease.unused,
    requestCount: lease.window > 0 ? Number(counters.requestCount) - lease.unused : counters.requestCount,
    lastRequest: now,
    lastRefillAt: counters.lastRefillAt,
  };
  return { valid: true, row: { ...row, ...shown } };
}

/** How many uses the next block of a key takes, from how its last block went. */
function nextSize(previous: Lease | undefined, waiting: number, now: number): number {
  if (!previous) return waiting;
  // Spent before its time was up: the key is hotter than the block; otherwise as many as it used.
  const size =
    previous.unused === 0 && now < previous.expiresAt ? previous.granted * 2 : previous.granted - previous.unused;
  return Math.min(MAX_LEASE, Math.max(waiting, size));
}

/**
 * Uses that found no usable block, in arrival order: answered from a block another batch left, else from one
 * taken now with one compare-and-set. Lost to another daemon's write, the row is read again and decided again.
 */
async function leaseForBatch(
  ctx: AuthContext,
  leases: LeaseState,
  storedKey: string,
  uses: ApiKeyUse[],
): Promise<ApiKeyVerification[]> {
  let row: apiKeys.ApiKeyWithOwnerBan | undefined = newest(uses.map((use) => use.row));
  let results: (ApiKeyVerification | undefined)[] = [];
  /** The next block's size, judged once, before the last block's rest goes back. */
  let size: number | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      row = await apiKeys.findApiKeyByStoredKey(ctx.db, storedKey);
      if (row) noteKeyCounters(ctx, storedKey, row);
    }
    const now = ctx.now();
    const current = row;
    results = uses.map((use, index) => {
      if (results[index]?.valid) return results[index];
      const refusal = refusalOf(current, storedKey, use.permissions, now);
      return refusal ? { valid: false, reason: refusal.reason, tryAgainIn: refusal.tryAgainIn } : undefined;
    });
    if (!current) return results.map((result) => result ?? { valid: false, reason: "KEY_NOT_FOUND" });
    const previous = leases.leases.get(current.id);
    if (usable(previous, current, now)) answerWaiting(results, previous, current, now);
    const waiting = results.filter((result) => result === undefined).length;
    if (waiting === 0) return results as ApiKeyVerification[];
    // What is left of an ended block goes back first, so the next block is taken from the row it leaves (a
    // window's block also puts its last use back in `lastRequest`, in place of the block's end).
    // (A block spent before its end needs neither: the next block's write stamps its own end.)
    size ??= nextSize(previous, waiting, now);
    const stampBack = previous && previous.window > 0 && previous.lastUse !== null && now >= previous.expiresAt;
    const ended = previous && (previous.unused > 0 || stampBack);
    const back = ended ? await giveBack(leases, previous) : undefined;
    const from = back ? { ...current, ...back } : current;
    const taken = await takeBlock(ctx, leases, storedKey, from, Math.max(size, waiting), waiting, now);
    if (taken === "lost") continue;
    if (taken.kind === "use") answerWaiting(results, taken.lease, current, now);
    if (!results.includes(undefined)) return results as ApiKeyVerification[];
    // Uses beyond what the key allows get the refusal the next use would get.
    const refusal = taken.kind === "refuse" ? taken : decideUsage(ctx, { ...from, ...taken.lease.counters }, now);
    if (refusal.kind === "refuse" && refusal.deleteKey) await deleteKeyRow(ctx, current.id);
    const refused: ApiKeyVerification =
      refusal.kind === "refuse"
        ? { valid: false, reason: refusal.reason, tryAgainIn: refusal.tryAgainIn }
        : { valid: false, reason: "USAGE_EXCEEDED" };
    return results.map((result) => result ?? refused);
  }
  return results.map((result) => result ?? { valid: false, reason: "FAILED_TO_UPDATE_API_KEY" });
}

function answerWaiting(results: (ApiKeyVerification | undefined)[], lease: Lease, row: ApiKeyRow, now: number): void {
  for (const [index, result] of results.entries())
    if (result === undefined && lease.unused > 0) results[index] = answerFromLease(lease, row, now);
}

/**
 * Lease up to `wanted` uses of the key with one compare-and-set of its row; never more than a quarter of what
 * the key has left, unless the uses waiting need more.
 */
async function takeBlock(
  ctx: AuthContext,
  leases: LeaseState,
  storedKey: string,
  row: ApiKeyRow,
  wanted: number,
  waiting: number,
  now: number,
): Promise<"lost" | { kind: "use"; lease: Lease } | Extract<ReturnType<typeof decideUses>, { kind: "refuse" }>> {
  const window = rateMode(ctx, row) === "window" ? Number(row.rateLimitTimeWindow) : 0;
  const left = Math.min(
    row.remaining === null ? Number.POSITIVE_INFINITY : Number(row.remaining),
    window > 0 ? Number(row.rateLimitMax) - Number(row.requestCount) : Number.POSITIVE_INFINITY,
  );
  const decision = decideUses(ctx, row, now, Math.min(wanted, Math.max(waiting, Math.ceil(left / 4))));
  if (decision.kind === "refuse") return decision;
  // A short window gets a short block, so a block never holds its window open much past exact counting.
  const lifetime = window > 0 ? Math.min(LEASE_MS, Math.max(1, Math.floor(window / 10))) : LEASE_MS;
  const next = { ...decision.next };
  if (window > 0) next.lastRequest = Math.max(Number(next.lastRequest), now + lifetime);
  const updated = await apiKeys.updateApiKeyUsageIfUnchanged(ctx.db, row.id, usageOf(row), next);
  if (!updated) return "lost";
  noteKeyCounters(ctx, storedKey, updated);
  const lease: Lease = {
    keyId: row.id,
    updatedAt: Number(row.updatedAt),
    lastRefillAt: next.lastRefillAt === null ? null : Number(next.lastRefillAt),
    expiresAt: now + lifetime,
    window,
    granted: decision.granted,
    unused: decision.granted,
    lastUse: null,
    counters: usageOf(updated),
  };
  leases.leases.set(row.id, lease);
  startLeaseWriter(leases);
  return { kind: "use", lease };
}

/**
 * Give back what is left of a block (at most once: the block holds nothing after this). Resolves to the row
 * as it then is, or undefined when nothing went back. A failure leaves the unused uses spent, never granted.
 */
function giveBack(leases: LeaseState, lease: Lease): Promise<ApiKeyRow | undefined> {
  const ctx = leases.context;
  const unused = lease.unused;
  lease.unused = 0;
  if (!ctx) return Promise.resolve(undefined);
  const now = ctx.now();
  // Window slots go back only while the window cannot have started over (a new window's count is not ours).
  const unusedWindow = lease.window > 0 && now < Number(lease.counters.lastRequest) + lease.window ? unused : 0;
  const unusedRemaining = lease.counters.remaining === null ? 0 : unused;
  // The last use's stamp. A window's block wrote its end into `lastRequest` (no use of it can come later):
  // the last use replaces it, unless another write came since.
  const stamp = lease.lastUse;
  lease.lastUse = null;
  if (unusedWindow === 0 && unusedRemaining === 0 && stamp === null) return Promise.resolve(undefined);
  const blockEnd = lease.window > 0 ? Number(lease.counters.lastRequest) : null;
  const done = apiKeys
    .returnLeasedApiKeyUses(ctx.db, lease, unusedRemaining, unusedWindow, stamp, blockEnd)
    .catch((error: unknown) => {
      const slot = leases.logSlots.claim("api-key-lease", "giving back leased API key uses failed", Date.now());
      if (slot)
        ctx.logger.error("giving back leased API key uses failed; they stay spent", {
          error,
          repeated: slot.suppressed,
        });
      return undefined;
    });
  leases.returning.add(done);
  return done.finally(() => leases.returning.delete(done));
}

/** How long an ended block is remembered (to size the key's next block) before it is forgotten. */
const REMEMBERED_MS = 60_000;

/** Once the first block is taken: a tick gives back what is left of blocks whose time is up. */
function startLeaseWriter(leases: LeaseState): void {
  const ctx = leases.context;
  if (leases.timer || !ctx) return;
  leases.timer = setInterval(() => void giveBackEndedBlocks(ctx), LEASE_MS);
  leases.timer.unref?.();
}

/** Give back what is left of this context's blocks whose time is up (the tick's work; resolves when written). */
export async function giveBackEndedBlocks(ctx: AuthContext): Promise<void> {
  const leases = state(ctx);
  const now = ctx.now();
  const writes: Promise<unknown>[] = [];
  for (const [keyId, lease] of leases.leases) {
    if (now < lease.expiresAt) continue;
    if (lease.unused > 0 || lease.lastUse !== null) writes.push(giveBack(leases, lease));
    else if (now - lease.expiresAt > REMEMBERED_MS) leases.leases.delete(keyId);
  }
  await Promise.all(writes);
}

/**
 * The counters of `row` as this daemon knows them: what is left of its block of the key is not spent yet
 * (api-key/get and list on this daemon show the key as exact counting would).
 */
export function withLeasedRest(ctx: AuthContext, row: ApiKeyRow): ApiKeyRow {
  if (!leasesUses(ctx)) return row;
  const lease = state(ctx).leases.get(row.id);
  if (!lease || lease.unused === 0 || lease.updatedAt !== Number(row.updatedAt)) return row;
  return {
    ...row,
    remaining:
      row.remaining === null || lease.counters.remaining === null
        ? row.remaining
        : Number(row.remaining) + lease.unused,
    requestCount: lease.window > 0 ? Math.max(0, Number(row.requestCount) - lease.unused) : row.requestCount,
  };
}
