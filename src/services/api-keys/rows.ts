import type { AuthContext } from "../../context.ts";
import { sha256Base64Url } from "../../crypto/random.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow, Db } from "../../db/schema.ts";
import { KeptOutcomes } from "../../platform/kept-outcomes.ts";
import { KeyedBatches } from "../../platform/keyed-work.ts";
import { perContext } from "../../platform/per-context.ts";
import { forgetCopies, ProvenCopies, type ReadStamp } from "../../platform/proven-copies.ts";

// The key row a verification reads (with its owner's ban), kept in memory while provably current, the way
// sessions are (sessions/local-cache.ts, platform/proven-copies.ts): a copy is tagged, when its read starts,
// with this process's epoch and the database's change version (SQLite's data_version, the count of Postgres
// notifications: db/change-signal.ts), and serves only while neither has moved. Every write of a key row
// (create, update, delete, the deletions verification makes) and every user write (a ban, a deletion: see
// invalidateLocalSessions) moves the epoch at once and at commit and is announced to the other processes.
// While changes cannot be followed (the Postgres listener is down) nothing is cached. The usage counters in
// a copy may be behind: they are never trusted for a limit (the compare-and-set and Redis's script check
// them), and a key without limits has none that matter.
//
// Without a copy, concurrent lookups of one key share one read that starts after they all arrived.

const MAX_AGE_MS = 60_000;

/** Key rows this context read lately, while provably current (a user write drops them too: sessions/local-cache.ts). */
export const apiKeyRowCopies = perContext(() => new ProvenCopies<apiKeys.ApiKeyWithOwnerBan>());
/** Concurrent lookups of one key share a read. */
const keyReads = perContext(() => new KeyedBatches<void, apiKeys.ApiKeyWithOwnerBan | undefined>());

/** The stamp for a read starting now, or null when copies may not be used. */
function readStamp(ctx: AuthContext): ReadStamp | null {
  if (!ctx.config.apiKey.memoryCache) return null;
  const version = ctx.database.changes.version();
  if (version === null) return null;
  return { epoch: apiKeyRowCopies(ctx).epoch, version };
}

/** Hashes of keys presented lately: a key is looked up by its hash on every verification (as session tokens). */
const recentKeyHashes = new KeptOutcomes<string>(1000, 256);

/** The stored form of a key: SHA-256 base64url, unless hashing is switched off. */
export function storedFormOfKey(ctx: AuthContext, key: string): string {
  return ctx.config.apiKey.disableKeyHashing ? key : sha256Base64Url(key);
}

/**
 * The stored form of a key a caller presents, its hash kept by exact input: a back end sends the same key on
 * every request. A key just created is hashed with storedFormOfKey, so the daemon keeps no key it only issued.
 */
export function storedFormOfPresentedKey(ctx: AuthContext, key: string): string {
  return ctx.config.apiKey.disableKeyHashing ? key : recentKeyHashes.get(key, sha256Base64Url);
}

/** The row of a stored key, from a current copy or one (shared) read. */
export async function findKeyRow(ctx: AuthContext, storedKey: string): Promise<apiKeys.ApiKeyWithOwnerBan | undefined> {
  const copies = apiKeyRowCopies(ctx);
  const stamp = readStamp(ctx);
  const copy = stamp && copies.get(storedKey, stamp, ctx.now(), MAX_AGE_MS);
  if (copy) return copy;
  const row = await keyReads(ctx).run(storedKey, undefined, async (waiting) => {
    const found = await apiKeys.findApiKeyByStoredKey(ctx.db, storedKey);
    return waiting.map(() => found);
  });
  // Refused if this process wrote a key meanwhile; a later change elsewhere moves the version it is checked against.
  if (row && stamp) copies.set(storedKey, row, stamp, ctx.now());
  return row;
}

/**
 * This process's own compare-and-set (or a fresh read) moved the counters: the copy takes them, so the next
 * use starts from them instead of losing a compare-and-set to its own last write. Other fields unchanged.
 */
export function noteKeyCounters(ctx: AuthContext, storedKey: string, counters: ApiKeyRow): void {
  apiKeyRowCopies(ctx).revise(storedKey, (row) =>
    Number(counters.usageVersion) <= Number(row.usageVersion)
      ? undefined
      : {
          ...row,
          requestCount: counters.requestCount,
          remaining: counters.remaining,
          lastRequest: counters.lastRequest,
          lastRefillAt: counters.lastRefillAt,
          usageVersion: counters.usageVersion,
        },
  );
}

/** After a write of key rows through `db` (the database, or the transaction that made it). */
export function forgetApiKeyRows(ctx: AuthContext, db: Db): Promise<void> {
  return forgetCopies(ctx, db, apiKeyRowCopies(ctx));
}

/** An expired or spent key goes on sight. */
export async function deleteKeyRow(ctx: AuthContext, keyId: string): Promise<void> {
  await apiKeys.deleteApiKeyById(ctx.db, keyId);
  await forgetApiKeyRows(ctx, ctx.db);
}
