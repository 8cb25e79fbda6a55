import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { giveBackEndedBlocks, LEASE_MS } from "../../src/services/api-keys/leases.ts";
import { Agent } from "../helpers/agent.ts";
import { createTestContext, SERVER_TOKEN, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { postgresUnavailableReason } from "../helpers/postgres.ts";

// apiKey.usageWrites "leased" (docs/api-keys.md, "How uses are counted"): on Postgres without Redis a daemon
// takes a hot key's uses from the row in blocks and answers from memory. Never more valid uses than the
// limits allow, on one daemon or several; what a block did not use goes back, so every use can be spent in
// the end; an edit of the key voids the blocks out; a key used now and then is counted exactly.

const postgresSkipped = await postgresUnavailableReason();

describe.skipIf(postgresSkipped !== null)("API key usage writes, leased [postgres]", () => {
  const state = {} as { t: TestContext; userId: string };
  beforeAll(async () => {
    state.t = await createTestContext({ dialect: "postgres", env: { AUTH_API_KEY_USAGE_WRITES: "leased" } });
    state.userId = (await signUp(state.t)).user.id;
  });
  afterAll(() => state.t.close());

  const createKey = async (fields: Record<string, unknown>, userId = state.userId) => {
    const res = await state.t.server().post("/api-key/create", { userId, ...fields });
    if (res.status !== 200) throw new Error(`create failed: ${res.text}`);
    return res.body as { id: string; key: string };
  };
  const verify = async (key: string, via: Agent = state.t.server()) =>
    (await via.post("/api-key/verify", { key })).body;
  /** `count` uses of a key, `concurrency` at a time. */
  const hammer = async (key: string, count: number, concurrency = 10, via?: Agent) => {
    const answers: Awaited<ReturnType<typeof verify>>[] = [];
    for (let sent = 0; sent < count; sent += concurrency)
      answers.push(
        ...(await Promise.all(Array.from({ length: Math.min(concurrency, count - sent) }, () => verify(key, via)))),
      );
    return answers;
  };
  const rawRow = (id: string) =>
    state.t.ctx.db.selectFrom("apikey").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  /** Let the blocks' time run out and give back what is left, as the daemon's tick does. */
  const endBlocks = async (ctx = state.t.ctx) => {
    state.t.clock.advance(LEASE_MS + 1);
    await giveBackEndedBlocks(ctx);
  };
  const secondDaemon = async () => {
    const ctx = await createContext(state.t.ctx.config, { logger: silentLogger, now: () => state.t.clock.now });
    const agent = new Agent(createApp(ctx), ctx.config.basePath, TEST_ORIGIN);
    agent.headers.authorization = `Bearer ${SERVER_TOKEN}`;
    return { ctx, agent };
  };

  it("answers a hot key from blocks, never more uses than it has, and gives the rest back", async () => {
    // Given a key with 500 uses left
    const key = await createKey({ remaining: 500, rateLimitEnabled: false });
    // When 300 uses arrive, 10 at a time
    const answers = await hammer(key.key, 300);
    // Then all are valid, each shows what is left after it, as exact counting would
    expect(answers.every((answer) => answer.valid)).toBe(true);
    expect(answers.map((answer) => answer.key.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 300 }, (_, i) => 499 - i),
    );
    // And the row shows at least those uses spent (a block still out counts as spent)
    expect(Number((await rawRow(key.id)).remaining)).toBeLessThanOrEqual(200);
    // And once the blocks' time is up, the row holds exactly what is left
    await endBlocks();
    expect(Number((await rawRow(key.id)).remaining)).toBe(200);
  });

  it("grants a key with one use left exactly once under a burst", async () => {
    const key = await createKey({ remaining: 1, rateLimitEnabled: false });
    const answers = await Promise.all(Array.from({ length: 25 }, () => verify(key.key)));
    expect(answers.filter((answer) => answer.valid)).toHaveLength(1);
    // (the use that finds it spent deletes it, as with exact counting: later ones find no key)
    for (const answer of answers.filter((answer) => !answer.valid))
      expect(["USAGE_EXCEEDED", "KEY_NOT_FOUND"]).toContain(answer.error.code);
  });

  it("counts a key used now and then exactly, a block of one use each time", async () => {
    const key = await createKey({ remaining: 10, rateLimitEnabled: false });
    for (let use = 1; use <= 3; use++) {
      expect((await verify(key.key)).valid).toBe(true);
      expect(Number((await rawRow(key.id)).remaining)).toBe(10 - use);
      state.t.clock.advance(LEASE_MS + 1);
    }
  });

  it("spends a rate window across two daemons without passing its maximum", async () => {
    // Given a key with a window of 40 uses a minute, and a second daemon on the same database
    const other = await secondDaemon();
    try {
      const key = await createKey({ rateLimitMax: 40, rateLimitTimeWindow: 60_000 });
      // When 100 uses arrive, half on each daemon
      const answers = (await Promise.all([hammer(key.key, 50, 10), hammer(key.key, 50, 10, other.agent)])).flat();
      // Then at most 40 are valid, the rest are refused with a wait, and the row's count never passes 40
      const valid = answers.filter((answer) => answer.valid).length;
      expect(valid).toBeGreaterThan(0);
      expect(valid).toBeLessThanOrEqual(40);
      const refused = answers.filter((answer) => !answer.valid);
      expect(refused.map((answer) => answer.error.code)).toEqual(refused.map(() => "RATE_LIMITED"));
      expect(Math.min(...refused.map((answer) => answer.error.details.tryAgainIn))).toBeGreaterThan(0);
      expect(Number((await rawRow(key.id)).requestCount)).toBeLessThanOrEqual(40);
      // And once both daemons' blocks are given back, the window's slots are all spendable, and no more
      await endBlocks();
      await giveBackEndedBlocks(other.ctx);
      const more = await hammer(key.key, 60, 10);
      expect(valid + more.filter((answer) => answer.valid).length).toBe(40);
    } finally {
      await other.ctx.close();
    }
  });

  it("spends `remaining` exactly across two daemons once their blocks are given back", async () => {
    const other = await secondDaemon();
    try {
      // (with a refill, so the use that finds the row spent does not delete the key while a block is out)
      const key = await createKey({ remaining: 200, refillAmount: 200, refillInterval: 30, rateLimitEnabled: false });
      let valid = 0;
      for (let round = 0; round < 5 && valid < 200; round++) {
        const answers = (await Promise.all([hammer(key.key, 150, 10), hammer(key.key, 150, 10, other.agent)])).flat();
        valid += answers.filter((answer) => answer.valid).length;
        // Never more than the key has, at any point
        expect(valid).toBeLessThanOrEqual(200);
        await endBlocks();
        await giveBackEndedBlocks(other.ctx);
      }
      expect(valid).toBe(200);
      expect(Number((await rawRow(key.id)).remaining)).toBe(0);
    } finally {
      await other.ctx.close();
    }
  });

  it("voids a block when the key is edited: a new `remaining` is what is left, the old block adds nothing", async () => {
    // Given a hot key holding a block
    const key = await createKey({
      remaining: 10_000,
      refillAmount: 10_000,
      refillInterval: 30,
      rateLimitEnabled: false,
    });
    await hammer(key.key, 200);
    // When an admin sets `remaining` to 5 while the block is out
    const update = await state.t
      .server()
      .post("/api-key/update", { keyId: key.id, userId: state.userId, remaining: 5 });
    expect(update.status).toBe(200);
    // Then exactly 5 more uses are valid, and giving back the old block's rest changes nothing
    const answers = await hammer(key.key, 20);
    expect(answers.filter((answer) => answer.valid)).toHaveLength(5);
    await endBlocks();
    expect(Number((await rawRow(key.id)).remaining)).toBe(0);
  });

  it("moves `updatedAt` forward on every edit, even two in one millisecond (a block is tied to it)", async () => {
    const key = await createKey({ remaining: 10, rateLimitEnabled: false });
    const stamps: number[] = [];
    for (const remaining of [7, 6, 5]) {
      await state.t.server().post("/api-key/update", { keyId: key.id, userId: state.userId, remaining });
      stamps.push(Number((await rawRow(key.id)).updatedAt));
    }
    expect(stamps[1]).toBeGreaterThan(stamps[0]);
    expect(stamps[2]).toBeGreaterThan(stamps[1]);
  });

  it("refuses at once a key disabled, or whose owner is banned, while a block is out", async () => {
    const owner = await signUp(state.t);
    const disabled = await createKey({ remaining: 10_000, rateLimitEnabled: false }, owner.user.id);
    const banned = await createKey({ remaining: 10_000, rateLimitEnabled: false }, owner.user.id);
    await Promise.all([hammer(disabled.key, 100), hammer(banned.key, 100)]);
    await state.t.server().post("/api-key/update", { keyId: disabled.id, userId: owner.user.id, enabled: false });
    expect((await verify(disabled.key)).error.code).toBe("KEY_DISABLED");
    await state.t.server().post("/admin/ban-user", { userId: owner.user.id });
    expect((await verify(banned.key)).error.code).toBe("USER_IS_BANNED");
  });

  it("refuses a forged key and checks permissions on every use answered from a block", async () => {
    const key = await createKey({ remaining: 10_000, rateLimitEnabled: false, permissions: { files: ["read"] } });
    await hammer(key.key, 100);
    const forged = `${key.key.slice(0, -1)}${key.key.endsWith("A") ? "B" : "A"}`;
    expect((await verify(forged)).error.code).toBe("KEY_NOT_FOUND");
    const asks = (permissions: unknown) => state.t.server().post("/api-key/verify", { key: key.key, permissions });
    expect((await asks({ files: ["read"] })).body.valid).toBe(true);
    expect((await asks({ files: ["write"] })).body.error.code).toBe("KEY_NOT_FOUND");
  });

  it("gives back every block when the daemon shuts down", async () => {
    const other = await secondDaemon();
    const key = await createKey({ remaining: 1000, rateLimitEnabled: false });
    const answers = await hammer(key.key, 120, 10, other.agent);
    expect(answers.every((answer) => answer.valid)).toBe(true);
    await other.ctx.close();
    expect(Number((await rawRow(key.id)).remaining)).toBe(880);
  });

  it("refills a spent key on time", async () => {
    const key = await createKey({ remaining: 3, refillAmount: 3, refillInterval: 1, rateLimitEnabled: false });
    expect((await hammer(key.key, 6, 6)).filter((answer) => answer.valid)).toHaveLength(3);
    state.t.clock.advance(86_400_000 + 1);
    expect((await hammer(key.key, 6, 6)).filter((answer) => answer.valid)).toHaveLength(3);
    await endBlocks();
    expect(Number((await rawRow(key.id)).remaining)).toBe(0);
  });
});
