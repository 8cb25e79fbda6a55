import type { AuthContext, SecondaryStorage } from "../context.ts";
import type { SessionRow, UserRow } from "../db/schema.ts";

// Sessions in the secondary storage (Redis). The database stays the record (lists, cascades and the CLI
// read it); Redis holds {session, user} per token so that every daemon of a deployment answers a session
// read without the database. Rules that keep it honest:
// - An entry is filled on a read miss, tagged with the generation read before the database was asked.
//   Any write to users or sessions outside the sessions service bumps the generation (see
//   session-cache-invalidation.ts), which disowns every older entry at once.
// - The sessions service drops the entry of a session it changes, and writes a tombstone for one it
//   revokes; a fill never overwrites a tombstone (one Lua script), so a read racing a revocation on another
//   daemon cannot bring the session back.
// - Entries live at most CACHE_MAX_AGE_SECONDS, as a last bound on anything the rules above miss.

const CACHE_MAX_AGE_SECONDS = 300;
const REVOKED = "revoked";
const GENERATION_KEY = "session-generation";
const cacheKey = (token: string) => `session:${token}`;

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
  | { kind: "revoked" }
  | { kind: "hit"; session: SessionRow; user: UserRow }
  | { kind: "miss"; generation: string };

const LATE_BUMP_MS = 2000;

function bumpSessionCacheGeneration(storage: SecondaryStorage): Promise<void> {
  return storage.increment(GENERATION_KEY).then(() => {});
}

/**
 * After a write to users or sessions: disown every cached entry now, and once more a moment later. The
 * write may sit in a transaction that commits after this runs; a read on another daemon in between sees
 * the old rows and could cache them under the new generation (a deleted account's session, say). The
 * second bump disowns such an entry too.
 */
export async function disownCachedSessions(storage: SecondaryStorage, onLateFailure: (error: unknown) => void): Promise<void> {
  await bumpSessionCacheGeneration(storage);
  setTimeout(() => bumpSessionCacheGeneration(storage).catch(onLateFailure), LATE_BUMP_MS).unref();
}

/** One round trip: the entry and the current generation. */
export async function readCachedSession(ctx: AuthContext, token: string): Promise<CacheLookup> {
  if (!ctx.secondaryStorage) return { kind: "off" };
  const [entry, current] = await ctx.secondaryStorage.getMany([cacheKey(token), GENERATION_KEY]);
  const generation = current ?? "0";
  if (entry === REVOKED) return { kind: "revoked" };
  if (entry !== null) {
    const cached = JSON.parse(entry) as CachedSession;
    if (cached.generation === generation) return { kind: "hit", session: cached.session, user: cached.user };
  }
  return { kind: "miss", generation };
}

export async function fillSessionCache(ctx: AuthContext, found: { session: SessionRow; user: UserRow }, generation: string): Promise<void> {
  const storage = ctx.secondaryStorage;
  const ttl = Math.min(CACHE_MAX_AGE_SECONDS, Math.ceil((Number(found.session.expiresAt) - ctx.now()) / 1000));
  if (!storage || ttl <= 0) return;
  const entry: CachedSession = { generation, session: found.session, user: found.user };
  await storage.evaluate(FILL_SCRIPT, [cacheKey(found.session.token)], [JSON.stringify(entry), String(ttl)]);
}

/** "changed": the next read refills from the database; "revoked": a tombstone no fill can overwrite. */
export async function forgetCachedSessions(ctx: AuthContext, tokens: string[], mode: "revoked" | "changed"): Promise<void> {
  const storage = ctx.secondaryStorage;
  if (!storage || tokens.length === 0) return;
  if (mode === "changed") await Promise.all(tokens.map((token) => storage.delete(cacheKey(token))));
  else await Promise.all(tokens.map((token) => storage.set(cacheKey(token), REVOKED, CACHE_MAX_AGE_SECONDS)));
}
