import type { AuthContext } from "../../context.ts";
import type { Db, SessionRow, UserRow } from "../../db/schema.ts";
import { isOutage } from "../../dependencies.ts";
import type { SecondaryStorage } from "../../platform/secondary-storage.ts";
import { invalidateLocalSessions } from "./local-cache.ts";

// Sessions in the secondary storage (Redis). The database stays the record (lists, cascades and the CLI
// read it); Redis holds {session, user} per token hash so that every daemon of a deployment answers a
// session read without the database. Like the database, Redis never sees a session token: keys and
// entries carry only its SHA-256, so a Redis dump is no more a set of live sessions than a backup is.
// Rules that keep it honest:
// - An entry is filled on a read miss, tagged with the generation read before the database was asked.
//   Only services/users.ts and services/sessions/ write users and sessions, and each of their writes
//   invalidates: a write to users, or to sessions chosen by anything but their token hash (a user's, an
//   organization's), bumps the generation (disownCachedSessions), which disowns every older entry at once.
//   Such writes are rare next to session reads, so one global counter costs almost nothing.
// - The sessions service drops the entry of a session it changes, and writes a tombstone for one it
//   revokes; a fill never overwrites a tombstone (one Lua script), so a read racing a revocation on another
//   daemon cannot bring the session back.
// - Entries live at most CACHE_MAX_AGE_SECONDS, as a last bound on anything the rules above miss.

const CACHE_MAX_AGE_SECONDS = 300;
const REVOKED = "revoked";
const GENERATION_KEY = "session-generation";
const cacheKey = (tokenHash: string) => `session:${tokenHash}`;

const FILL_SCRIPT = `
if redis.call('GET', KEYS[1]) == '${REVOKED}' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
`;

interface CachedSession {
  generation: string;
  session: SessionRow;
  user: UserRow;
}

export type CacheLookup =
  | { kind: "off" }
  | { kind: "unreachable" }
  | { kind: "revoked" }
  | { kind: "hit"; session: SessionRow; user: UserRow }
  | { kind: "miss"; generation: string };

const LATE_BUMP_MS = 2000;

function bumpSessionCacheGeneration(storage: SecondaryStorage): Promise<void> {
  return storage.increment(GENERATION_KEY).then(() => {});
}

/**
 * After a write to users or sessions through `db` (the database or the writer's transaction): drop this
 * process's copies (sessions/local-cache.ts) and disown every Redis entry now, and once more a moment later.
 * The write may sit in a transaction that commits after this runs; a read on another daemon in between sees
 * the old rows and could cache them under the new generation (a deleted account's session, say). The
 * second bump disowns such an entry too. The caller's answer waits for the first bump.
 */
export async function disownCachedSessions(ctx: AuthContext, db: Db = ctx.db): Promise<void> {
  await invalidateLocalSessions(ctx, db);
  const storage = ctx.secondaryStorage;
  if (!storage) return;
  await bumpSessionCacheGeneration(storage);
  const late = () =>
    bumpSessionCacheGeneration(storage).catch((error) =>
      ctx.logger.error("could not disown cached sessions", { error }),
    );
  setTimeout(late, LATE_BUMP_MS).unref();
}

/**
 * One round trip: the entry and the current generation. "unreachable" while Redis is down: the database,
 * which every revocation deletes from before it writes a tombstone, answers the read alone (and nothing is
 * filled), so a Redis outage does not stop sessions from being read.
 */
export async function readCachedSession(ctx: AuthContext, tokenHash: string): Promise<CacheLookup> {
  if (!ctx.secondaryStorage) return { kind: "off" };
  let entry: string | null;
  let current: string | null;
  try {
    [entry, current] = await ctx.secondaryStorage.getMany([cacheKey(tokenHash), GENERATION_KEY]);
  } catch (error) {
    if (isOutage(error)) return { kind: "unreachable" };
    throw error;
  }
  const generation = current ?? "0";
  if (entry === REVOKED) return { kind: "revoked" };
  if (entry !== null) {
    const cached = JSON.parse(entry) as CachedSession;
    if (cached.generation === generation) return { kind: "hit", session: cached.session, user: cached.user };
  }
  return { kind: "miss", generation };
}

export async function fillSessionCache(
  ctx: AuthContext,
  found: { session: SessionRow; user: UserRow },
  generation: string,
): Promise<void> {
  const storage = ctx.secondaryStorage;
  const ttl = Math.min(CACHE_MAX_AGE_SECONDS, Math.ceil((Number(found.session.expiresAt) - ctx.now()) / 1000));
  if (!storage || ttl <= 0) return;
  // Whatever the caller hands in, the clear token (a live credential) must not reach Redis.
  const { token: _token, ...session } = found.session as SessionRow & { token?: string };
  const entry: CachedSession = { generation, session, user: found.user };
  await storage.evaluate(FILL_SCRIPT, [cacheKey(found.session.tokenHash)], [JSON.stringify(entry), String(ttl)]);
}

/**
 * After sessions changed through `db`: "changed": the next read refills from the database; "revoked": a
 * tombstone no fill can overwrite. This process's copies all go (sessions/local-cache.ts).
 */
export async function forgetCachedSessions(
  ctx: AuthContext,
  tokenHashes: string[],
  mode: "revoked" | "changed",
  db: Db = ctx.db,
): Promise<void> {
  if (tokenHashes.length === 0) return;
  await invalidateLocalSessions(ctx, db);
  const storage = ctx.secondaryStorage;
  if (!storage) return;
  if (mode === "changed") await Promise.all(tokenHashes.map((hash) => storage.delete(cacheKey(hash))));
  else await Promise.all(tokenHashes.map((hash) => storage.set(cacheKey(hash), REVOKED, CACHE_MAX_AGE_SECONDS)));
}
