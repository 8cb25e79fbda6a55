import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy, type TcpProxy, throughProxy as through } from "../../scripts/tcp-proxy.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { createPostgresSchema, POSTGRES_URL, postgresUnavailableReason } from "../helpers/postgres.ts";
import { REDIS_URL, redisEnv, redisSkipped } from "../helpers/redis.ts";

// Postgres and Redis outages, simulated by a TCP proxy this test puts in front of them and cuts: the
// machine's real servers are never touched. During an outage a request that needs the missing server answers
// 503 with Retry-After (never an auth error, never a hang), what does not need it keeps working, and /ready
// fails; once the proxy is restored the same context recovers without a restart.

/** Retry until the check passes: recovery takes a reconnect, whose moment the test does not control. */
async function eventually(check: () => Promise<boolean>, attempts = 50): Promise<boolean> {
  for (let i = 0; i < attempts; i += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

type Agent = ReturnType<TestContext["agent"]>;
type Answer = Awaited<ReturnType<Agent["get"]>>;

/** Refused for now because a dependency is down: 503, Retry-After, the catalogue's body and nothing more. */
function expectOutageAnswer(answer: Answer): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get("retry-after")).toBe("1");
  expect(answer.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: "Service unavailable" });
}

/** During an outage: /ready names what is down, and the session cookie survives (a 5xx is not a sign-out). */
async function expectNotReady(agent: Agent, details: Record<string, boolean>): Promise<void> {
  const ready = await agent.get("/ready");
  expect(ready.status).toBe(503);
  expect(ready.body.details).toMatchObject(details);
  expect(agent.cookie("session_token")).toBeDefined();
}

/** After the proxy is restored: ready again, and the same session reads back without a restart. */
async function expectRecovered(agent: Agent, email: string): Promise<void> {
  expect(await eventually(async () => (await agent.get("/ready")).status === 200)).toBe(true);
  const after = await agent.get("/get-session", { query: { disableCookieCache: true } });
  expect(after.status).toBe(200);
  expect(after.body.user.email).toBe(email);
}

const postgresSkipped = (await postgresUnavailableReason()) !== null;

describe.skipIf(postgresSkipped)("a Postgres outage", () => {
  let t: TestContext;
  let proxy: TcpProxy;
  let dropSchema: () => Promise<void>;
  beforeAll(async () => {
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;
    const direct = new URL(POSTGRES_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    t = await createTestContext({ env: { AUTH_DATABASE_URL: through(schema.url, proxy) } });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await dropSchema();
  });

  it("answers 503 with Retry-After while the database is away and recovers when it returns", async () => {
    const { agent, email, password } = await signUp(t);
    expect(t.ctx.database.dialect).toBe("postgres");

    proxy.cut();
    expectOutageAnswer(await agent.get("/get-session", { query: { disableCookieCache: true } }));
    const signIn = await t.agent().post("/sign-in/email", { email, password });
    expectOutageAnswer(signIn);
    expect(JSON.stringify(signIn.body)).not.toMatch(/ECONN|at .*\.ts/);
    await expectNotReady(agent, { database: false });
    expect((await agent.get("/ok")).status).toBe(200);

    proxy.restore();
    await expectRecovered(agent, email);
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);
  });
});

describe("a SQLite file another process holds locked", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("answers a write that waited out the lock 503 with Retry-After, and writes again once it is released", async () => {
    // Given another process holding the write lock (the CLI in a long transaction, a backup tool)
    const other = new Database(t.ctx.config.databaseURL.slice("sqlite://".length));
    other.run("begin immediate");
    try {
      // When a sign-up needs to write, it waits for the lock (busy_timeout), then is told to come back
      expectOutageAnswer(
        await t.agent().post("/sign-up/email", { name: "N", email: "n@example.com", password: "pw-123456789" }),
      );
    } finally {
      other.run("rollback");
      other.close();
    }
    expect(
      (await t.agent().post("/sign-up/email", { name: "N", email: "n@example.com", password: "pw-123456789" })).status,
    ).toBe(200);
  });
});

const BURST = 30;

describe.skipIf(redisSkipped)("a Redis outage: the server refuses connections", () => {
  let t: TestContext;
  let proxy: TcpProxy;
  beforeAll(async () => {
    const direct = new URL(REDIS_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    t = await createTestContext({ env: redisEnv(through(REDIS_URL, proxy)) });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("answers 503 at once for what needs Redis, keeps serving the rest, and recovers without a restart", async () => {
    const { agent, email, user } = await signUp(t);
    const other = await signUp(t);
    const limited = (await t.server().post("/api-key/create", { userId: user.id, remaining: 5 })).body;
    const unlimited = (await t.server().post("/api-key/create", { userId: user.id, rateLimitEnabled: false })).body;
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).status).toBe(200);

    proxy.cut();
    // Needs Redis: a sign-out's tombstone, a limited key's exact count, an active organization's cache bump
    expectOutageAnswer(await other.agent.post("/sign-out", {}));
    expectOutageAnswer(await t.server().post("/api-key/verify", { key: limited.key }));
    expectOutageAnswer(await agent.post("/organization/create", { name: "Acme", slug: `acme-${user.id}` }));
    // Does not: a session read (the database answers it), a key without limits, liveness
    const read = await agent.get("/get-session", { query: { disableCookieCache: true } });
    expect(read.status).toBe(200);
    expect(read.body.user.email).toBe(email);
    expect((await t.server().post("/api-key/verify", { key: unlimited.key })).body.valid).toBe(true);
    expect((await agent.get("/ok")).status).toBe(200);
    await expectNotReady(agent, { database: true, secondaryStorage: false });

    // Once Redis is known to be down, requests do not each try to connect (Bun's client retried five times
    // inside every one): a burst opens fewer connections than it has requests, only the background probe's.
    const before = proxy.connections;
    for (let i = 0; i < BURST; i += 1)
      expectOutageAnswer(await t.server().post("/api-key/verify", { key: limited.key }));
    expect(proxy.connections - before).toBeLessThan(BURST);

    proxy.restore();
    await expectRecovered(agent, email);
    expect((await t.server().post("/api-key/verify", { key: limited.key })).body.valid).toBe(true);
  });
});

describe.skipIf(redisSkipped)("a Redis outage: the network drops everything (blackhole)", () => {
  let t: TestContext;
  let proxy: TcpProxy;
  beforeAll(async () => {
    const direct = new URL(REDIS_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const env = { ...redisEnv(through(REDIS_URL, proxy)), AUTH_REDIS_TIMEOUT_MS: "300", AUTH_RATE_LIMIT: "on" };
    t = await createTestContext({ env, config: { rateLimit: { customRules: { "/sign-up/email": false } } } });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("answers every request that waits on Redis 503 once the timeout passes, rather than hanging", async () => {
    const { agent, email } = await signUp(t);
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).status).toBe(200);

    // When the network starts dropping everything, with commands on the wire and more arriving: the
    // connection stays open and nothing answers, so only the daemon's own timeout can end the waits (the
    // test's timeout is the only clock here: without one, these requests never answer).
    proxy.blackhole();
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => agent.get("/get-session", { query: { disableCookieCache: true } })),
    );
    // Then each is answered from the database: the rate limit, counted in Redis, counts in this instance's
    // memory while Redis is down, and a session read needs nothing else from it
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.user.email).toBe(email);
    }
    expect((await agent.get("/ok")).status).toBe(200);
    const before = proxy.connections;
    for (let i = 0; i < BURST; i += 1) expectOutageAnswer(await agent.post("/sign-out", {}));
    expect(proxy.connections - before).toBeLessThan(BURST);
    expect(agent.cookie("session_token")).toBeDefined();

    proxy.restore();
    await expectRecovered(agent, email);
  });
});
