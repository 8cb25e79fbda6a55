import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresChangeSignal } from "../../src/db/change-signal.ts";
import type { SessionRow, UserRow } from "../../src/db/schema.ts";
import { LocalSessionCache } from "../../src/services/sessions/local-cache.ts";
import { POSTGRES_URL, postgresUnavailableReason } from "../helpers/postgres.ts";

// The in-process session store refuses every copy it cannot prove current (sessions/local-cache.ts), and the
// Postgres change signal says "unknown" (null) whenever it may have missed a notification.

const postgresSkipped = await postgresUnavailableReason();
if (postgresSkipped) console.log(`skipping the Postgres change-signal cases: ${postgresSkipped}`);

const pair = (id: string) => ({
  session: { id, tokenHash: `h-${id}`, userId: `u-${id}` } as SessionRow,
  user: { id: `u-${id}`, email: `${id}@example.com` } as UserRow,
});

describe("LocalSessionCache", () => {
  const MAX_AGE = 60_000;

  it("serves a copy only under the stamp it was read with", () => {
    const cache = new LocalSessionCache();
    const stamp = { epoch: cache.epoch, version: 7 };
    cache.set("a", pair("a"), stamp, 1000);
    expect(cache.get("a", stamp, 1001, MAX_AGE)?.session.id).toBe("a");
    // Another process committed (the change version moved): the copy goes, for good.
    expect(cache.get("a", { ...stamp, version: 8 }, 1002, MAX_AGE)).toBeUndefined();
    expect(cache.get("a", stamp, 1003, MAX_AGE)).toBeUndefined();
  });

  it("drops every copy on invalidate, and refuses a copy made by a read that started before it", () => {
    const cache = new LocalSessionCache();
    const before = { epoch: cache.epoch, version: 1 };
    cache.set("a", pair("a"), before, 0);
    cache.invalidate();
    const after = { epoch: cache.epoch, version: 1 };
    expect(cache.get("a", after, 1, MAX_AGE)).toBeUndefined();
    // A read that raced the write finishes now and tries to store what it saw before the write.
    cache.set("b", pair("b"), before, 2);
    expect(cache.size).toBe(0);
    expect(cache.get("b", after, 3, MAX_AGE)).toBeUndefined();
  });

  it("keeps a copy no longer than maxAge", () => {
    const cache = new LocalSessionCache();
    const stamp = { epoch: cache.epoch, version: 0 };
    cache.set("a", pair("a"), stamp, 10_000);
    expect(cache.get("a", stamp, 10_000 + MAX_AGE - 1, MAX_AGE)).toBeDefined();
    expect(cache.get("a", stamp, 10_000 + MAX_AGE, MAX_AGE)).toBeUndefined();
  });

  it("keeps at most 10,000 copies, dropping the oldest", () => {
    const cache = new LocalSessionCache();
    const stamp = { epoch: cache.epoch, version: 0 };
    for (let n = 0; n < 10_050; n++) cache.set(`k${n}`, pair(`${n}`), stamp, 0);
    expect(cache.size).toBe(10_000);
    expect(cache.get("k0", stamp, 0, MAX_AGE)).toBeUndefined();
    expect(cache.get("k49", stamp, 0, MAX_AGE)).toBeUndefined();
    expect(cache.get("k50", stamp, 0, MAX_AGE)?.session.id).toBe("50");
    expect(cache.get("k10049", stamp, 0, MAX_AGE)?.session.id).toBe("10049");
  });

  it("hands out frozen copies: a caller cannot change what later reads see", () => {
    const cache = new LocalSessionCache();
    const stamp = { epoch: cache.epoch, version: 0 };
    const original = pair("a");
    cache.set("a", original, stamp, 0);
    original.user.email = "changed@example.com";
    const copy = cache.get("a", stamp, 0, MAX_AGE);
    expect(copy?.user.email).toBe("a@example.com");
    expect(() => {
      (copy?.user as { email: string }).email = "mallory@example.com";
    }).toThrow();
  });
});

describe.skipIf(postgresSkipped !== null)("Postgres change signal", () => {
  const signals: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const signal of signals) await signal.close();
  });

  const until = async (check: () => boolean, what: string) => {
    for (let tries = 0; tries < 200; tries++) {
      if (check()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it("is unknown until it listens, moves on every announcement, and is unknown again when its connection dies", async () => {
    const schema = `signal_${Date.now()}`;
    const signal = postgresChangeSignal(pg.Client, { connectionString: POSTGRES_URL }, schema);
    signals.push(signal);
    expect(signal.version()).toBeNull();
    await until(() => signal.version() !== null, "the listener");
    const first = signal.version() as number;

    // Another process announces through a connection of its own.
    const other = new pg.Client({ connectionString: POSTGRES_URL });
    await other.connect();
    try {
      // The channel is named after the schema (change-signal.ts), so schemas sharing a database stay apart.
      const channelName = `authd_${createHash("sha256").update(schema).digest("hex").slice(0, 24)}`;
      await other.query("select pg_notify($1, '')", [channelName]);
      await until(() => (signal.version() ?? 0) > first, "the notification");

      // The listener's connection is cut: until it listens again, nothing cached may be trusted.
      const seen = signal.version() as number;
      await other.query("select pg_terminate_backend(pid) from pg_stat_activity where query = $1", [
        `listen "${channelName}"`,
      ]);
      await until(() => signal.version() === null, "the loss to be noticed");
      await until(() => signal.version() !== null, "the listener to reconnect");
      // Whatever was committed while it was away was never heard: the version has moved past every old stamp.
      expect(signal.version()).toBeGreaterThan(seen);
    } finally {
      await other.end();
    }
  });

  it("stays unknown while no server answers", async () => {
    const signal = postgresChangeSignal(
      pg.Client,
      { connectionString: "postgres://postgres@127.0.0.1:1/test", connectionTimeoutMillis: 500 },
      "nowhere",
    );
    signals.push(signal);
    for (let n = 0; n < 10; n++) {
      expect(signal.version()).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
