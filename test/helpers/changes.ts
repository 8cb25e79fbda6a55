import type { AuthContext } from "../../src/context.ts";
import { SQLITE_VERSION_REUSE_MS } from "../../src/db/change-signal.ts";

// Waiting for a daemon to learn of other processes' changes (src/db/change-signal.ts), for tests that
// change data through one daemon and read it through another that keeps copies in memory.

/**
 * Until the daemon has heard of every change committed so far. On SQLite it reads data_version again
 * once SQLITE_VERSION_REUSE_MS has passed. On Postgres a change reaches the other daemons' memory when its notification is delivered, just
 * after commit (the documented bound): a barrier notification sent now arrives after it, since each
 * listener receives notifications in commit order.
 */
export async function heardOfChanges(ctx: AuthContext): Promise<void> {
  if (ctx.database.dialect !== "postgres") {
    await new Promise((resolve) => setTimeout(resolve, SQLITE_VERSION_REUSE_MS + 1));
    return;
  }
  const seen = ctx.database.changes.version();
  if (seen === null) return;
  await ctx.database.changes.announce(ctx.db);
  for (let i = 0; i < 200; i += 1) {
    const now = ctx.database.changes.version();
    if (now === null || now > seen) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the change notification never arrived");
}

/** Until the daemon follows other processes' changes (on Postgres its listener connects on first use). */
export async function followingChanges(ctx: AuthContext): Promise<void> {
  for (let i = 0; i < 200 && ctx.database.changes.version() === null; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (ctx.database.changes.version() === null) throw new Error("the daemon never started following changes");
}
