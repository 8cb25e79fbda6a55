import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { flushApiKeyUsage, reconcileApiKeyUsage } from "../../src/services/api-keys/usage.ts";
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
import { redisEnv, redisSkipped } from "../helpers/redis.ts";

const DAY_MS = 86_400_000;
const NOT_FOUND = { code: "KEY_NOT_FOUND", message: "API Key not found" };

// The same behaviour whichever way uses are counted: the row's compare-and-set, Redis's counters, or blocks
// leased from the row (apiKey.usageWrites "leased", which applies on Postgres without Redis).
describeEachDialect("API key verification", (dialect) => verificationSuite(dialect, false));
describeEachDialect("API key verification with Redis counters", (dialect) => {
  if (redisSkipped) it.skip("needs Redis", () => {});
  else verificationSuite(dialect, true);
});
describeEachDialect("API key verification with leased uses", (dialect) => {
  if (dialect === "postgres") verificationSuite(dialect, false, { AUTH_API_KEY_USAGE_WRITES: "leased" });
  else it("counts exactly on SQLite whatever usageWrites says", () => {});
});

function verificationSuite(dialect: Dialect, redis: boolean, env: Record<string, string> = {}): void {
  let t: TestContext;
  let userId: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { ...env, ...(redis ? redisEnv() : {}) } });
    owner = await signUp(t);
    userId = owner.user.id;
  });
  afterAll(() => t.close());

  const serverKey = async (fields: Record<string, unknown> = {}) => {
    const res = await t.server().post("/api-key/create", { userId, ...fields });
    if (res.status !== 200) throw new Error(`create failed: ${res.text}`);
    return res.body as { id: string; key: string; [field: string]: unknown };
  };
  const verify = async (key: string, permissions?: Record<string, unknown>) =>
    (await t.server().post("/api-key/verify", { key, permissions })).body;
  /** The row once every counted use has reached it (written behind, or copied from Redis). */
  const storedRow = async (id: string) => {
    await flushApiKeyUsage(t.ctx);
    await reconcileApiKeyUsage(t.ctx);
    return t.ctx.db.selectFrom("apikey").selectAll().where("id", "=", id).executeTakeFirst();
  };

  it("answers a valid key with the record (no secret), counting the request and stamping lastRequest", async () => {
    const key = await serverKey({ name: "svc" });
    const first = await verify(key.key);
    expect(first.valid).toBe(true);
    expect(first.error).toBeNull();
    expect(first.key).not.toHaveProperty("key");
    expect(first.key).toMatchObject({
      id: key.id,
      userId,
      requestCount: 1,
      remaining: null,
      lastRequest: new Date(t.clock.now).toISOString(),
    });
    expect((await verify(key.key)).key.requestCount).toBe(2);
    expect((await owner.agent.get("/api-key/get", { query: { id: key.id } })).body.requestCount).toBe(2);
  });

  it("reports unknown, mangled and short keys as KEY_NOT_FOUND values, not errors", async () => {
    const key = await serverKey();
    const flipped = key.key.slice(0, 20) + (key.key[20] === "A" ? "B" : "A") + key.key.slice(21);
    for (const candidate of ["Q".repeat(64), flipped])
      expect(await verify(candidate)).toEqual({ valid: false, error: NOT_FOUND, key: null });
    expect(await verify("abc")).toEqual({
      valid: false,
      error: { code: "KEY_NOT_FOUND", message: "Invalid API key." },
      key: null,
    });
    expect((await verify(key.key)).valid).toBe(true);
    const missing = await t.server().post("/api-key/verify", {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
  });

  it("refuses a disabled key with KEY_DISABLED and accepts it again once re-enabled", async () => {
    const key = await serverKey();
    await t.server().post("/api-key/update", { keyId: key.id, userId, enabled: false });
    expect(await verify(key.key)).toEqual({
      valid: false,
      error: { code: "KEY_DISABLED", message: "API Key is disabled" },
      key: null,
    });
    await t.server().post("/api-key/update", { keyId: key.id, userId, enabled: true });
    expect((await verify(key.key)).valid).toBe(true);
  });

  it("refuses an expired key with KEY_EXPIRED and deletes it on sight", async () => {
    const key = await serverKey({ expiresIn: 86_400 });
    expect((await verify(key.key)).valid).toBe(true);
    t.clock.advance(DAY_MS + 1);
    expect(await verify(key.key)).toEqual({
      valid: false,
      error: { code: "KEY_EXPIRED", message: "API Key has expired" },
      key: null,
    });
    expect(await storedRow(key.id)).toBeUndefined();
    expect((await verify(key.key)).error).toEqual(NOT_FOUND);
  });

  it("spends remaining per use; an exhausted key without refill is USAGE_EXCEEDED and removed", async () => {
    const key = await serverKey({ remaining: 1 });
    const first = await verify(key.key);
    expect(first).toMatchObject({ valid: true, key: { remaining: 0, requestCount: 1 } });
    expect(await verify(key.key)).toEqual({
      valid: false,
      error: { code: "USAGE_EXCEEDED", message: "API Key has reached its usage limit" },
      key: null,
    });
    expect(await storedRow(key.id)).toBeUndefined();
    expect((await verify(key.key)).error).toEqual(NOT_FOUND);
    const zero = await serverKey({ remaining: 0 });
    expect((await verify(zero.key)).error.code).toBe("USAGE_EXCEEDED");
  });

  it("refills remaining to refillAmount once more than refillInterval days have passed", async () => {
    const key = await serverKey({ refillAmount: 2, refillInterval: 1 });
    expect((await verify(key.key)).key.remaining).toBe(1);
    expect((await verify(key.key)).key.remaining).toBe(0);
    expect((await verify(key.key)).error.code).toBe("USAGE_EXCEEDED");
    expect(await storedRow(key.id)).toBeDefined();
    t.clock.advance(DAY_MS);
    expect((await verify(key.key)).error.code).toBe("USAGE_EXCEEDED");
    t.clock.advance(1);
    const refilled = await verify(key.key);
    expect(refilled).toMatchObject({
      valid: true,
      key: { remaining: 1, lastRefillAt: new Date(t.clock.now).toISOString() },
    });
  });

  it("limits uses per rate window with tryAgainIn, starting over once the window has passed", async () => {
    const key = await serverKey({ rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
    expect((await verify(key.key)).key.requestCount).toBe(1);
    t.clock.advance(10_000);
    expect((await verify(key.key)).key.requestCount).toBe(2);
    t.clock.advance(15_000);
    const limited = await t.server().post("/api-key/verify", { key: key.key });
    expect(limited.status).toBe(200);
    expect(limited.body).toEqual({
      valid: false,
      error: { code: "RATE_LIMITED", message: "Rate limit exceeded.", details: { tryAgainIn: 45_000 } },
      key: null,
    });
    t.clock.advance(60_001);
    expect((await verify(key.key)).key.requestCount).toBe(1);
    const unlimited = await serverKey({ rateLimitEnabled: false, rateLimitMax: 1 });
    for (let i = 0; i < 3; i++) expect((await verify(unlimited.key)).valid).toBe(true);
  });

  it("checks permissions: every asked action of every asked resource must be held", async () => {
    const key = await serverKey({ permissions: { files: ["read", "write"], users: ["list"] } });
    expect((await verify(key.key, { files: ["read"] })).valid).toBe(true);
    expect((await verify(key.key, { files: ["read", "write"], users: ["list"] })).key.permissions).toEqual({
      files: ["read", "write"],
      users: ["list"],
    });
    for (const asked of [{ files: ["delete"] }, { files: ["read", "delete"] }, { billing: ["read"] }]) {
      expect(await verify(key.key, asked)).toEqual({ valid: false, error: NOT_FOUND, key: null });
    }
    const plain = await serverKey();
    expect((await verify(plain.key, { files: ["read"] })).error).toEqual(NOT_FOUND);
    expect((await t.server().post("/api-key/verify", { key: key.key, permissions: { files: "read" } })).status).toBe(
      400,
    );
  });

  it("refuses the key of a banned owner (USER_IS_BANNED) without spending a use, and only while the ban is in force", async () => {
    // Given a key of its own user, valid before the ban
    const banned = await signUp(t);
    const res = await t.server().post("/api-key/create", { userId: banned.user.id, remaining: 5 });
    const key = res.body as { id: string; key: string };
    expect((await verify(key.key)).valid).toBe(true);

    // When an admin bans the owner, the key is refused as a value, with the spec's message
    await t.server().post("/admin/ban-user", { userId: banned.user.id });
    expect(await verify(key.key)).toEqual({
      valid: false,
      error: { message: "User is banned", code: "USER_IS_BANNED" },
      key: null,
    });
    expect((await storedRow(key.id))?.remaining).toBe(4);
    const asHeader = await t.agent().get("/get-session", { headers: { "x-api-key": key.key } });
    expect(asHeader.status).toBe(401);
    expect(asHeader.body.code).toBe("USER_IS_BANNED");
    expect((await storedRow(key.id))?.remaining).toBe(4);

    // Then unbanning gives the key back; a ban with an expiry refuses it only until then
    await t.server().post("/admin/unban-user", { userId: banned.user.id });
    expect((await verify(key.key)).key.remaining).toBe(3);
    await t.server().post("/admin/ban-user", { userId: banned.user.id, banExpiresIn: 3600 });
    expect((await verify(key.key)).error.code).toBe("USER_IS_BANNED");
    t.clock.advance(3_600_000 + 1);
    expect(await verify(key.key)).toMatchObject({ valid: true, error: null, key: { remaining: 2 } });
  });

  it("deletes expired keys through the server call and, at most every 10 s, after key operations", async () => {
    const a = await serverKey({ expiresIn: 86_400 });
    const live = await serverKey();
    t.clock.advance(DAY_MS + 1);
    expect((await t.server().post("/api-key/delete-all-expired-api-keys", {})).body).toEqual({
      success: true,
      error: null,
    });
    expect(await storedRow(a.id)).toBeUndefined();
    expect(await storedRow(live.id)).toBeDefined();

    const b = await serverKey({ expiresIn: 86_400 });
    t.clock.advance(DAY_MS + 1);
    // A day has passed since the last sweep, so the next key operation sweeps (in the background).
    await owner.agent.get("/api-key/list");
    await t.ctx.settle();
    expect(await storedRow(b.id)).toBeUndefined();

    const c = await serverKey({ expiresIn: 86_400 });
    t.clock.advance(DAY_MS + 1);
    await owner.agent.get("/api-key/list"); // sweeps, and starts a 10 s quiet period
    // The sweep runs in the background: it ends before d expires, or it could find d expired itself.
    await t.ctx.settle();
    const d = await serverKey({ expiresIn: 86_400 });
    await t.ctx.db
      .updateTable("apikey")
      .set({ expiresAt: t.clock.now - 1 })
      .where("id", "=", d.id)
      .execute();
    t.clock.advance(5_000);
    await owner.agent.get("/api-key/list");
    await t.ctx.settle();
    expect(await storedRow(c.id)).toBeUndefined();
    expect(await storedRow(d.id)).toBeDefined();
    t.clock.advance(5_001);
    await owner.agent.get("/api-key/list");
    await t.ctx.settle();
    expect(await storedRow(d.id)).toBeUndefined();
  });

  describe("under concurrency", () => {
    it("lets a key with remaining 1 verify exactly once among 8 concurrent requests", async () => {
      const key = await serverKey({ remaining: 1 });
      const results = await Promise.all(Array.from({ length: 8 }, () => verify(key.key)));
      expect(results.filter((r) => r.valid)).toHaveLength(1);
      for (const r of results.filter((r) => !r.valid))
        expect(["USAGE_EXCEEDED", "KEY_NOT_FOUND"]).toContain(r.error.code);
    });

    it("spends remaining exactly: 12 concurrent uses of a key with remaining 5 give 5 valid and leave 0", async () => {
      const key = await serverKey({ remaining: 5, refillAmount: 5, refillInterval: 30 });
      const results = await Promise.all(Array.from({ length: 12 }, () => verify(key.key)));
      expect(results.filter((r) => r.valid)).toHaveLength(5);
      expect((await storedRow(key.id))?.remaining).toBe(0);
    });

    it("counts the rate window exactly: rateLimitMax 3 admits 3 of 10 concurrent requests", async () => {
      const key = await serverKey({ rateLimitMax: 3, rateLimitTimeWindow: 60_000 });
      const results = await Promise.all(Array.from({ length: 10 }, () => verify(key.key)));
      expect(results.filter((r) => r.valid)).toHaveLength(3);
      expect(results.filter((r) => !r.valid).every((r) => r.error.code === "RATE_LIMITED")).toBe(true);
      expect((await storedRow(key.id))?.requestCount).toBe(3);
    });

    it("counts exactly when two daemons share the database (the compare-and-set, not the in-process queue)", async () => {
      const other = await createContext(t.ctx.config, { logger: silentLogger, migrate: false, now: () => t.clock.now });
      try {
        const otherServer = new Agent(createApp(other), t.ctx.config.basePath, TEST_ORIGIN);
        otherServer.headers.authorization = `Bearer ${SERVER_TOKEN}`;
        const key = await serverKey({ remaining: 4, refillAmount: 4, refillInterval: 30, rateLimitEnabled: false });
        const results = await Promise.all(
          Array.from(
            { length: 12 },
            async (_, i) =>
              (await (i % 2 === 0 ? t.server() : otherServer).post("/api-key/verify", { key: key.key })).body,
          ),
        );
        expect(results.filter((r) => r.valid)).toHaveLength(4);
        expect((await storedRow(key.id))?.remaining).toBe(0);
        const limited = await serverKey({ rateLimitMax: 3, rateLimitTimeWindow: 60_000 });
        const uses = await Promise.all(
          Array.from(
            { length: 10 },
            async (_, i) =>
              (await (i % 2 === 0 ? t.server() : otherServer).post("/api-key/verify", { key: limited.key })).body,
          ),
        );
        expect(uses.filter((r) => r.valid)).toHaveLength(3);
        expect((await storedRow(limited.id))?.requestCount).toBe(3);
      } finally {
        await other.close();
      }
    });
  });
}
