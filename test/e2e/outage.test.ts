import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { createPostgresSchema, POSTGRES_URL, postgresUnavailableReason } from "../helpers/postgres.ts";
import { REDIS_URL, redisEnv, redisSkipped } from "../helpers/redis.ts";

// Postgres and Redis outages, simulated by a TCP proxy this test puts in front of them and cuts: the
// machine's real servers are never touched. During an outage authd answers 5xx (never an auth error) and
// /ready fails; once the proxy is restored the same context recovers without a restart.

interface Proxy {
  port: number;
  /** Drop every open connection and refuse new ones. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

async function startProxy(target: { host: string; port: number }): Promise<Proxy> {
  const open = new Set<Socket>();
  let up = true;
  const server: Server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      up = false;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function through(url: string, proxy: Proxy): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(proxy.port);
  return parsed.toString();
}

/** Retry until the check passes: recovery takes a reconnect, whose moment the test does not control. */
async function eventually(check: () => Promise<boolean>, attempts = 50): Promise<boolean> {
  for (let i = 0; i < attempts; i += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

type Agent = ReturnType<TestContext["agent"]>;

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
  let proxy: Proxy;
  let dropSchema: () => Promise<void>;
  beforeAll(async () => {
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;
    const direct = new URL(POSTGRES_URL);
    proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    t = await createTestContext({ env: { AUTH_DATABASE_URL: through(schema.url, proxy) } });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await dropSchema();
  });

  it("answers 5xx while the database is away and recovers when it returns", async () => {
    const { agent, email, password } = await signUp(t);
    expect(t.ctx.database.dialect).toBe("postgres");

    proxy.cut();
    const read = await agent.get("/get-session", { query: { disableCookieCache: true } });
    expect(read.status).toBeGreaterThanOrEqual(500);
    const signIn = await t.agent().post("/sign-in/email", { email, password });
    expect(signIn.status).toBeGreaterThanOrEqual(500);
    expect(signIn.body.code).not.toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(JSON.stringify(signIn.body)).not.toMatch(/ECONN|at .*\.ts/);
    await expectNotReady(agent, { database: false });
    expect((await agent.get("/ok")).status).toBe(200);

    proxy.restore();
    await expectRecovered(agent, email);
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);
  });
});

describe.skipIf(redisSkipped)("a Redis outage", () => {
  let t: TestContext;
  let proxy: Proxy;
  beforeAll(async () => {
    const direct = new URL(REDIS_URL);
    proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const env = redisEnv(through(REDIS_URL, proxy));
    t = await createTestContext({
      env: { ...env, AUTH_RATE_LIMIT: "on" },
      config: { rateLimit: { customRules: { "/sign-up/email": false } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("answers 5xx while Redis is away and recovers without a restart", async () => {
    const { agent, email } = await signUp(t);
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).status).toBe(200);

    proxy.cut();
    const read = await agent.get("/get-session", { query: { disableCookieCache: true } });
    expect(read.status).toBeGreaterThanOrEqual(500);
    await expectNotReady(agent, { database: true, secondaryStorage: false });

    proxy.restore();
    await expectRecovered(agent, email);
  });
});
