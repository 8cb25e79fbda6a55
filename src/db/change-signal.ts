import { createHash } from "node:crypto";
import { sql } from "kysely";
import type pg from "pg";
import type { Db } from "./schema.ts";

// How a process learns that another one changed the data it keeps copies of (the in-process session
// cache, services/sessions/local-cache.ts). Copies are tagged with version() when their read starts and are
// good only while it has not moved.
// - SQLite: `pragma data_version` moves whenever another connection (another daemon on the same file, the
//   CLI) commits; it is read at most once a millisecond. This process's own writes do not move it; the
//   services invalidate those themselves.
// - Postgres: the services announce each change with NOTIFY through the connection that made it (inside a
//   transaction, Postgres delivers it at commit and drops it on rollback), and every process, this one
//   included, LISTENs on a connection of its own. The version counts the notifications received. While that
//   connection is down (not yet up, lost, reconnecting) version() is null: nothing may be served from a
//   copy, because a notification may have been missed.

export interface ChangeSignal {
  /** Moves whenever another process may have changed the data; null while changes cannot be followed. */
  version(): number | null;
  /** Tell every process that cached data changed, through `db` (in a transaction: delivered at commit). */
  announce(db: Db): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long a reading of SQLite's data_version is reused. Reading it starts a read transaction on the file
 * (about 6 µs, the largest single cost of a session read served from memory), so under load it is read at
 * most once a millisecond: another process's commit reaches this one's copies within that bound.
 */
export const SQLITE_VERSION_REUSE_MS = 1;

export function sqliteChangeSignal(dataVersion: () => number): ChangeSignal {
  let known = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  return {
    version() {
      const now = performance.now();
      if (now - readAt >= SQLITE_VERSION_REUSE_MS) {
        known = dataVersion();
        readAt = now;
      }
      return known;
    },
    announce: async () => {},
    close: async () => {},
  };
}

/** Channel names are identifiers of at most 63 bytes; one per schema, so schemas sharing a database stay apart. */
function channelFor(schema: string): string {
  return `authd_${createHash("sha256").update(schema).digest("hex").slice(0, 24)}`;
}

const RECONNECT_AFTER_MS = 1000;

/**
 * The listener connects on the first version() call (a command that never reads a cached copy never opens
 * it) and reconnects, at most once a second, on a later call after losing its connection.
 */
export function postgresChangeSignal(
  Client: typeof pg.Client,
  connection: pg.ClientConfig,
  schema: string,
): ChangeSignal {
  const channel = channelFor(schema);
  let received = 0;
  let client: pg.Client | null = null;
  let listening = false;
  let lastAttempt = 0;
  let closed = false;

  const lose = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    listening = false;
    received += 1;
    lost.end().catch(() => {});
  };
  const connect = () => {
    lastAttempt = Date.now();
    const next = new Client(connection);
    client = next;
    next.on("error", () => lose(next));
    next.on("end", () => lose(next));
    next.on("notification", (message) => {
      if (message.channel === channel) received += 1;
    });
    next
      .connect()
      .then(() => next.query(`listen "${channel}"`))
      .then(() => {
        if (client !== next || closed) return next.end();
        // Anything committed before LISTEN took effect was never seen: copies made before this count as stale.
        received += 1;
        listening = true;
      })
      .catch(() => lose(next));
  };

  return {
    version() {
      if (listening) return received;
      if (!client && !closed && Date.now() - lastAttempt >= RECONNECT_AFTER_MS) connect();
      return null;
    },
    async announce(db) {
      await sql`select pg_notify(${channel}, '')`.execute(db);
    },
    async close() {
      closed = true;
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => {});
    },
  };
}
