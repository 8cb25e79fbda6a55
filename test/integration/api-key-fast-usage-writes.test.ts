import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { Agent } from "../helpers/agent.ts";
import {
  createTestContext,
  describeEachDialect,
  SERVER_TOKEN,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../helpers/context.ts";

// apiKey.usageWrites "fast" (docs/api-keys.md, "How uses are counted"): on Postgres the compare-and-set of a
// limited key commits without waiting for the WAL flush. Counting stays exact, across daemons too; the
// relaxed commit stays inside that statement's own transaction and never reaches other statements.

describeEachDialect("API key usage writes, fast", (dialect) => {
  const state = {} as { t: TestContext; userId: string };
  beforeAll(async () => {
    state.t = await createTestContext({ dialect, env: { AUTH_API_KEY_USAGE_WRITES: "fast" } });
    state.userId = (await signUp(state.t)).user.id;
  });
  afterAll(() => state.t.close());

  const createKey = async (fields: Record<string, unknown>) => {
    const res = await state.t.server().post("/api-key/create", { userId: state.userId, ...fields });
    if (res.status !== 200) throw new Error(`create failed: ${res.text}`);
    return res.body as { id: string; key: string };
  };
  const verify = async (key: string, via: Agent) => (await via.post("/api-key/verify", { key })).body;
  const rawRow = (id: string) =>
    state.t.ctx.db.selectFrom("apikey").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("is off unless asked for", async () => {
    const plain = await createTestContext({ dialect });
    try {
      expect(plain.ctx.config.apiKey.usageWrites).toBe("durable");
      expect(state.t.ctx.config.apiKey.usageWrites).toBe("fast");
    } finally {
      await plain.close();
    }
  });

  it("spends remaining and a rate window exactly across two daemons, and the row holds the count", async () => {
    // Given a key with 7 uses left, one with a window of 5, and a second daemon on the same database
    const ctx = await createContext(state.t.ctx.config, { logger: silentLogger, now: () => state.t.clock.now });
    const other = new Agent(createApp(ctx), ctx.config.basePath, TEST_ORIGIN);
    other.headers.authorization = `Bearer ${SERVER_TOKEN}`;
    try {
      const spent = await createKey({ remaining: 7, refillAmount: 7, refillInterval: 30, rateLimitEnabled: false });
      const windowed = await createKey({ rateLimitMax: 5, rateLimitTimeWindow: 60_000 });
      // When 40 and 30 uses arrive at once, half on each daemon
      const via = (i: number) => (i % 2 === 0 ? state.t.server() : other);
      const uses = await Promise.all(Array.from({ length: 40 }, (_, i) => verify(spent.key, via(i))));
      const windowUses = await Promise.all(Array.from({ length: 30 }, (_, i) => verify(windowed.key, via(i))));
      // Then exactly 7 and 5 are valid, each use with its own count, and the rows say so at once
      const valid = uses.filter((use) => use.valid);
      expect(valid.map((use) => use.key.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(uses.filter((use) => !use.valid).every((use) => use.error.code === "USAGE_EXCEEDED")).toBe(true);
      expect(Number((await rawRow(spent.id)).remaining)).toBe(0);
      expect(windowUses.filter((use) => use.valid)).toHaveLength(5);
      expect(windowUses.filter((use) => !use.valid).every((use) => use.error.code === "RATE_LIMITED")).toBe(true);
      expect(Number((await rawRow(windowed.id)).requestCount)).toBe(5);
    } finally {
      await ctx.close();
    }
  });

  it("keeps the relaxed commit to the usage write's own transaction", async () => {
    // Given uses written the fast way on every connection of the pool
    const key = await createKey({ remaining: 1000, rateLimitEnabled: false });
    await Promise.all(Array.from({ length: 30 }, () => verify(key.key, state.t.server())));
    // Then every other statement on those connections still commits as configured (Postgres: with the
    // flush; SQLite: WAL at `synchronous = normal`, which the fast setting does not touch)
    const setting =
      dialect === "postgres"
        ? sql<Record<string, unknown>>`show synchronous_commit`
        : sql<Record<string, unknown>>`pragma synchronous`;
    const results = await Promise.all(Array.from({ length: 20 }, () => setting.execute(state.t.ctx.db)));
    const values = results.map((result) => String(Object.values(result.rows[0] ?? {})[0]));
    expect(new Set(values)).toEqual(new Set([dialect === "postgres" ? "on" : "1"]));
    expect(Number((await rawRow(key.id)).remaining)).toBe(970);
  });
});
