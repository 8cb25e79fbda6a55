import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AuthContext, createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { FLUSH_INTERVAL_MS, flushApiKeyUsage, reconcileApiKeyUsage } from "../../src/services/api-keys/usage.ts";
import { Agent } from "../helpers/agent.ts";
import {
  createTestContext,
  type Dialect,
  describeEachDialect,
  SERVER_TOKEN,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../helpers/context.ts";
import { REDIS_URL, redisEnv, redisSkipped } from "../helpers/redis.ts";

// How uses are counted behind the answer: the stamps of keys without limits (written once a second and on
// close), and the exact counters of limited keys in Redis (one script per use, copied into the row).

interface Daemon {
  ctx: AuthContext;
  server: Agent;
  close(): Promise<void>;
}

/** Another daemon on the test context's database (and Redis), on its clock. */
async function secondDaemon(t: TestContext): Promise<Daemon> {
  const ctx = await createContext(t.ctx.config, { logger: silentLogger, now: () => t.clock.now });
  const server = new Agent(createApp(ctx), ctx.config.basePath, TEST_ORIGIN);
  server.headers.authorization = `Bearer ${SERVER_TOKEN}`;
  return { ctx, server, close: () => ctx.close() };
}

function setup(dialect: Dialect, env: Record<string, string>) {
  const state = {} as { t: TestContext; userId: string };
  beforeAll(async () => {
    state.t = await createTestContext({ dialect, env });
    state.userId = (await signUp(state.t)).user.id;
  });
  afterAll(() => state.t.close());
  const createKey = async (fields: Record<string, unknown> = {}, via?: Agent) => {
    const res = await (via ?? state.t.server()).post("/api-key/create", { userId: state.userId, ...fields });
    if (res.status !== 200) throw new Error(`create failed: ${res.text}`);
    return res.body as { id: string; key: string };
  };
  const verify = async (key: string, via?: Agent) =>
    (await (via ?? state.t.server()).post("/api-key/verify", { key })).body;
  const rawRow = (id: string) =>
    state.t.ctx.db.selectFrom("apikey").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return { state, createKey, verify, rawRow };
}

describeEachDialect("API key stamps written behind", (dialect) => {
  const { state, createKey, verify, rawRow } = setup(dialect, {});

  it("answers uses of a key without limits at once and writes the latest stamp within the flush interval", async () => {
    // Given a key without limits, used several times as the clock moves
    const key = await createKey({ rateLimitEnabled: false });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await verify(key.key));
      state.t.clock.advance(1000);
    }
    const last = state.t.clock.now - 1000;
    expect(answers.every((answer) => answer.valid)).toBe(true);
    expect(answers[4].key.lastRequest).toBe(new Date(last).toISOString());
    // When the writer's interval passes, then the row holds the latest stamp (and only that moved)
    await vi.waitFor(async () => expect(Number((await rawRow(key.id)).lastRequest)).toBe(last), {
      timeout: FLUSH_INTERVAL_MS * 5,
      interval: 50,
    });
    expect((await rawRow(key.id)).requestCount).toBe(0);
  });

  it("shows this process's waiting stamp in get and list before it is written", async () => {
    const owner = await signUp(state.t);
    const created = await state.t.server().post("/api-key/create", { userId: owner.user.id, rateLimitEnabled: false });
    await verify(created.body.key);
    const stamp = new Date(state.t.clock.now).toISOString();
    expect((await owner.agent.get("/api-key/get", { query: { id: created.body.id } })).body.lastRequest).toBe(stamp);
    expect((await owner.agent.get("/api-key/list")).body[0].lastRequest).toBe(stamp);
  });

  it("writes the waiting stamps when a daemon closes, before its database closes", async () => {
    // Given a second daemon that answered uses of a key
    const other = await secondDaemon(state.t);
    const key = await createKey({ rateLimitEnabled: false });
    const uses = await Promise.all(Array.from({ length: 20 }, () => verify(key.key, other.server)));
    expect(uses.every((use) => use.valid)).toBe(true);
    // When it closes, then its stamp is in the row
    await other.close();
    expect(Number((await rawRow(key.id)).lastRequest)).toBe(state.t.clock.now);
  });

  it("never moves a stamp back, and leaves alone a key that was given a limit meanwhile", async () => {
    const key = await createKey({ rateLimitEnabled: false });
    await verify(key.key);
    await flushApiKeyUsage(state.t.ctx);
    const written = Number((await rawRow(key.id)).lastRequest);
    // A daemon whose clock is behind writes an older stamp: the row keeps the newer one
    const other = await secondDaemon(state.t);
    state.t.clock.advance(-5000);
    await verify(key.key, other.server);
    await other.close();
    state.t.clock.advance(5000);
    expect(Number((await rawRow(key.id)).lastRequest)).toBe(written);
    // A use waits to be written, then the key gets `remaining`: the stamp is not written over its counters
    state.t.clock.advance(1000);
    await verify(key.key);
    await state.t.server().post("/api-key/update", { keyId: key.id, userId: state.userId, remaining: 3 });
    await flushApiKeyUsage(state.t.ctx);
    expect(await rawRow(key.id)).toMatchObject({ lastRequest: written, remaining: 3 });
  });
});

describeEachDialect("API key counters in Redis", (dialect) => {
  if (redisSkipped) {
    it.skip("needs Redis", () => {});
    return;
  }
  const { state, createKey, verify, rawRow } = setup(dialect, redisEnv());
  const counters = async (keyId: string) => {
    const redis = new Bun.RedisClient(REDIS_URL);
    try {
      const name = `${state.t.ctx.config.redisKeyPrefix}apikey-usage:${keyId}`;
      return (await redis.send("HGETALL", [name])) as Record<string, string>;
    } finally {
      redis.close();
    }
  };

  it("spends remaining exactly across two daemons, never below 0, and copies the count into the row", async () => {
    // Given a key with 7 uses left and two daemons
    const other = await secondDaemon(state.t);
    try {
      const key = await createKey({ remaining: 7, refillAmount: 7, refillInterval: 30, rateLimitEnabled: false });
      // When 40 uses arrive at once, half on each daemon
      const uses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => verify(key.key, i % 2 === 0 ? state.t.server() : other.server)),
      );
      // Then exactly 7 are valid, each with its own remaining, and Redis holds 0
      const valid = uses.filter((use) => use.valid);
      expect(valid).toHaveLength(7);
      expect(valid.map((use) => use.key.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(uses.filter((use) => !use.valid).every((use) => use.error.code === "USAGE_EXCEEDED")).toBe(true);
      expect(Number((await counters(key.id)).remaining)).toBe(0);
      // And a copy brings the row level with Redis
      await reconcileApiKeyUsage(other.ctx);
      expect((await rawRow(key.id)).remaining).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("counts a rate window exactly across two daemons", async () => {
    const other = await secondDaemon(state.t);
    try {
      const key = await createKey({ rateLimitMax: 5, rateLimitTimeWindow: 60_000 });
      const uses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => verify(key.key, i % 2 === 0 ? state.t.server() : other.server)),
      );
      expect(uses.filter((use) => use.valid)).toHaveLength(5);
      expect(uses.filter((use) => !use.valid).every((use) => use.error.code === "RATE_LIMITED")).toBe(true);
      await reconcileApiKeyUsage(state.t.ctx);
      expect((await rawRow(key.id)).requestCount).toBe(5);
    } finally {
      await other.close();
    }
  });

  it("takes a new remaining set by an update, whatever Redis counted before", async () => {
    // Given a refillable key spent to 0 in Redis
    const key = await createKey({ remaining: 2, refillAmount: 2, refillInterval: 30 });
    expect((await verify(key.key)).valid).toBe(true);
    expect((await verify(key.key)).valid).toBe(true);
    expect((await verify(key.key)).error.code).toBe("USAGE_EXCEEDED");
    // When the server sets remaining to 3, then exactly 3 more uses are valid
    const updated = await state.t
      .server()
      .post("/api-key/update", { keyId: key.id, userId: state.userId, remaining: 3 });
    expect(updated.body.remaining).toBe(3);
    const uses = await Promise.all(Array.from({ length: 6 }, () => verify(key.key)));
    expect(uses.filter((use) => use.valid)).toHaveLength(3);
    await reconcileApiKeyUsage(state.t.ctx);
    expect((await rawRow(key.id)).remaining).toBe(0);
    // And disabling the key refuses it at once
    await state.t.server().post("/api-key/update", { keyId: key.id, userId: state.userId, enabled: false });
    expect((await verify(key.key)).error.code).toBe("KEY_DISABLED");
  });

  it("shows Redis's counters in get before they are copied, and keeps counting after Redis forgot the script", async () => {
    const owner = await signUp(state.t);
    const created = await state.t.server().post("/api-key/create", { userId: owner.user.id, remaining: 10 });
    await verify(created.body.key);
    await verify(created.body.key);
    expect((await owner.agent.get("/api-key/get", { query: { id: created.body.id } })).body.remaining).toBe(8);
    // SCRIPT FLUSH: the next call answers NOSCRIPT to the script's digest and gets its text instead
    const redis = new Bun.RedisClient(REDIS_URL);
    try {
      await redis.send("SCRIPT", ["FLUSH"]);
    } finally {
      redis.close();
    }
    expect((await verify(created.body.key)).key.remaining).toBe(7);
  });
});

describe("API key counters in Redis, once copied", () => {
  it.skipIf(redisSkipped)("seed from the row again after they expire, never from an older copy", async () => {
    const t = await createTestContext({ env: redisEnv() });
    try {
      const userId = (await signUp(t)).user.id;
      const key = (await t.server().post("/api-key/create", { userId, remaining: 5 })).body as {
        id: string;
        key: string;
      };
      await t.server().post("/api-key/verify", { key: key.key });
      await reconcileApiKeyUsage(t.ctx);
      const row = await t.ctx.db.selectFrom("apikey").selectAll().where("id", "=", key.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ remaining: 4, usageVersion: 1 });
      // Redis loses the counters (they expired): the next use starts from the row
      const redis = new Bun.RedisClient(REDIS_URL);
      try {
        await redis.send("DEL", [`${t.ctx.config.redisKeyPrefix}apikey-usage:${key.id}`]);
      } finally {
        redis.close();
      }
      expect((await t.server().post("/api-key/verify", { key: key.key })).body.key.remaining).toBe(3);
    } finally {
      await t.close();
    }
  });
});

describe("API key counters while Redis cannot be reached", () => {
  it("refuses to grant a use of a limited key it cannot count (503, try again), and keeps keys without limits working", async () => {
    // Given a daemon whose Redis is unreachable (nothing listens on port 1)
    const t = await createTestContext({ env: { AUTH_REDIS_URL: "redis://127.0.0.1:1" } });
    try {
      const userId = (await signUp(t)).user.id;
      const limited = (await t.server().post("/api-key/create", { userId, remaining: 5 })).body as { key: string };
      const unlimited = (await t.server().post("/api-key/create", { userId, rateLimitEnabled: false })).body as {
        key: string;
      };
      // When each is verified, then the limited one is refused for now and the other is valid
      const refused = await t.server().post("/api-key/verify", { key: limited.key });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: "Service unavailable" });
      expect((await t.server().post("/api-key/verify", { key: unlimited.key })).body.valid).toBe(true);
    } finally {
      await t.close();
    }
  });
});
