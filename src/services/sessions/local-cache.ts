import type { AuthContext } from "../../context.ts";
import type { Db, SessionRow, UserRow } from "../../db/schema.ts";
import { perContext } from "../../platform/per-context.ts";
import { forgetCopies, ProvenCopies, type ReadStamp } from "../../platform/proven-copies.ts";
import { defineHook } from "../hooks.ts";

// Sessions this process has read lately, kept in its memory so that a session read (every authenticated
// request) costs no database or Redis round trip. A copy is only ever served while it is provably current:
// - Each copy is tagged, when its read starts, with this process's epoch and the database's change version
//   (db/change-signal.ts: SQLite's data_version, or the count of Postgres notifications). A copy whose tags
//   differ from the current ones is dropped, so a copy made by a read that raced a change never serves.
// - Every write of users and sessions goes through services/users.ts and services/sessions/, and each one
//   calls invalidateLocalSessions: the epoch moves at once and again when the writer's transaction commits
//   (read-your-writes in this process), and the change is announced to every other process (on Postgres
//   a NOTIFY sent through the writer's transaction, so it arrives exactly at commit; on SQLite other
//   processes see data_version move).
// - While the change signal is down (the Postgres listener is not connected) nothing is cached or served.
// - A copy lives at most `session.memoryCache.maxAge` seconds, whatever happens, and the expiry of the
//   session itself is checked on every read (sessions.ts). At most MAX_ENTRIES copies are kept.
// Any change to any user or session drops every copy: simple, and such writes are rare next to reads.

export interface CachedPair {
  session: SessionRow;
  user: UserRow;
}

export class LocalSessionCache extends ProvenCopies<CachedPair> {
  override set(tokenHash: string, found: CachedPair, stamp: ReadStamp, now: number): void {
    // Frozen: a caller changing the copy it was handed would otherwise change what later reads see.
    super.set(
      tokenHash,
      { session: Object.freeze({ ...found.session }), user: Object.freeze({ ...found.user }) },
      stamp,
      now,
    );
  }
}

/** This context's copies of sessions. */
export const localSessions = perContext(() => new LocalSessionCache());

/** The stamp for a read starting now, or null when copies may not be used (off, or changes not followed). */
export function localReadStamp(ctx: AuthContext): ReadStamp | null {
  if (!ctx.config.session.memoryCache.enabled) return null;
  const version = ctx.database.changes.version();
  if (version === null) return null;
  return { epoch: localSessions(ctx).epoch, version };
}

export function readLocalSession(ctx: AuthContext, tokenHash: string, stamp: ReadStamp): CachedPair | undefined {
  return localSessions(ctx).get(tokenHash, stamp, ctx.now(), ctx.config.session.memoryCache.maxAge * 1000);
}

export function storeLocalSession(ctx: AuthContext, tokenHash: string, found: CachedPair, stamp: ReadStamp): void {
  localSessions(ctx).set(tokenHash, found, stamp, ctx.now());
}

/**
 * Other copies this process keeps of rows that carry user fields (API-key rows carry their owner's ban):
 * any write of users or sessions drops them with the sessions.
 */
export const userCopies = defineHook<(ctx: AuthContext) => ProvenCopies<unknown>>("userCopies");

/** After a write of users or sessions through `db` (the database, or the transaction that made it). */
export function invalidateLocalSessions(ctx: AuthContext, db: Db): Promise<void> {
  const others = userCopies.handlers().map((copies) => copies(ctx));
  return forgetCopies(ctx, db, localSessions(ctx), ...others);
}
