import type { AuthContext } from "../context.ts";
import * as apiKeys from "../db/repositories/api-keys.ts";
import type { ApiKeyRow, Db } from "../db/schema.ts";
import { afterCommit } from "./transaction.ts";

// The key row a verification reads (with its owner's ban), kept in memory while provably current, the way
// sessions are (local-session-cache.ts): a copy is tagged, when its read starts, with this process's epochs
// (key writes here, user writes here) and the database's change version (SQLite's data_version, the count
// of Postgres notifications: db/change-signal.ts), and serves only while none has moved. Every write of a
// key row (create, update, delete, the deletions verification makes) moves the epoch at once and at commit
// and is announced to the other processes; a ban or a user's deletion moves the sessions' epoch and is
// announced by users.ts. While changes cannot be followed (the Postgres listener is down) nothing is
// cached. The usage counters in a copy may be behind: they are never trusted for a limit (the
// compare-and-set and Redis's script check them), and a key without limits has none that matter.
//
// Without a copy, concurrent lookups of one key share one read that starts after they all arrived.

const MAX_COPIES = 10_000;
const MAX_AGE_MS = 60_000;

interface Stamp {
  epoch: number;
  sessionsEpoch: number;
  version: number;
}

function readStamp(ctx: AuthContext): Stamp | null {
  if (!ctx.config.apiKey.memoryCache) return null;
  const version = ctx.database.changes.version();
  if (version === null) return null;
  return { epoch: ctx.local.apiKeyRows.epoch, sessionsEpoch: ctx.local.sessions.epoch, version };
}

const sameStamp = (a: Stamp, b: Stamp) =>
  a.epoch === b.epoch && a.sessionsEpoch === b.sessionsEpoch && a.version === b.version;

/** The row of a stored key, from a current copy or one (shared) read. */
export async function findKeyRow(ctx: AuthContext, storedKey: string): Promise<apiKeys.ApiKeyWithOwnerBan | undefined> {
  const cache = ctx.local.apiKeyRows;
  const stamp = readStamp(ctx);
  const copy = cache.copies.get(storedKey);
  if (copy && stamp && sameStamp(copy, stamp) && ctx.now() - copy.storedAt < MAX_AGE_MS) return copy.row;
  if (copy) cache.copies.delete(storedKey);
  const row = await ctx.local.apiKeyReads.run(storedKey, undefined, async (waiting) => {
    const found = await apiKeys.findApiKeyByStoredKey(ctx.db, storedKey);
    return waiting.map(() => found);
  });
  // Stored only if nothing moved since before the read started (a read that raced a change never serves).
  const after = readStamp(ctx);
  if (row && stamp && after && sameStamp(stamp, after)) {
    if (cache.copies.size >= MAX_COPIES) cache.copies.delete(cache.copies.keys().next().value as string);
    cache.copies.set(storedKey, { row, ...stamp, storedAt: ctx.now() });
  }
  return row;
}

/**
 * This process's own compare-and-set (or a fresh read) moved the counters: the copy takes them, so the next
 * use starts from them instead of losing a compare-and-set to its own last write. Other fields unchanged.
 */
export function noteKeyCounters(ctx: AuthContext, storedKey: string, counters: ApiKeyRow): void {
  const copy = ctx.local.apiKeyRows.copies.get(storedKey);
  if (!copy || Number(counters.usageVersion) <= Number(copy.row.usageVersion)) return;
  copy.row = {
    ...copy.row,
    requestCount: counters.requestCount,
    remaining: counters.remaining,
    lastRequest: counters.lastRequest,
    lastRefillAt: counters.lastRefillAt,
    usageVersion: counters.usageVersion,
  };
}

/** After a write of key rows through `db` (the database, or the transaction that made it). */
export async function forgetApiKeyRows(ctx: AuthContext, db: Db): Promise<void> {
  const cache = ctx.local.apiKeyRows;
  cache.epoch += 1;
  cache.copies.clear();
  afterCommit(db, () => {
    cache.epoch += 1;
    cache.copies.clear();
  });
  await ctx.database.changes.announce(db);
}
