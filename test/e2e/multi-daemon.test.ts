import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { createPostgresSchema, postgresUnavailableReason } from "../helpers/postgres.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";

// Three daemon processes behind an imaginary load balancer: one Postgres schema, one Redis. Whatever a
// caller does on one daemon holds on the others.

const SERVER_TOKEN = "3jeGfMn4_hcCVamBBWboSHlL2X2QMGYQsZVVuoz31b4Qmy-L_zPHBxoraZGZBwd_";
const postgresSkipped = (await postgresUnavailableReason()) !== null;

describe.skipIf(redisSkipped || postgresSkipped)("three daemons on one Postgres and one Redis", () => {
  let daemons: Daemon[] = [];
  let dropSchema: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const schema = await createPostgresSchema();
    dropSchema = schema.drop;
    // The test plays the load balancer: it calls from 127.0.0.1 and names the client in X-Forwarded-For.
    const env = {
      ...redisEnv(),
      AUTH_DATABASE_URL: schema.url,
      AUTH_SERVER_TOKEN: SERVER_TOKEN,
      AUTH_RATE_LIMIT: "on",
      AUTH_TRUSTED_PROXIES: "127.0.0.1",
    };
    const command = [process.execPath, "bin/authd.ts"];
    // The first one applies the migrations; the others then start side by side.
    const first = await startDaemon(command, env);
    daemons = [first, ...(await Promise.all([startDaemon(command, env), startDaemon(command, env)]))];
  }, 90_000);
  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    await dropSchema();
  });

  const call = (
    daemon: Daemon,
    method: string,
    path: string,
    options: { body?: unknown; cookie?: string; ip?: string; server?: boolean } = {},
  ) =>
    fetch(`${daemon.url}/api/auth${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json", origin: daemon.url }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.server ? { authorization: `Bearer ${SERVER_TOKEN}` } : {}),
        "x-forwarded-for": options.ip ?? "198.51.100.1",
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const sessionOn = async (daemon: Daemon, cookie: string) =>
    (await call(daemon, "GET", "/get-session?disableCookieCache=true", { cookie })).json() as Promise<{
      session: { token: string };
    } | null>;

  it("signs in on one, reads the session on another, revokes it on the third: gone everywhere", async () => {
    const [a, b, c] = daemons;
    const email = "multi@example.com";
    expect(
      (
        await call(a, "POST", "/sign-up/email", {
          body: { name: "Multi", email, password: "correct-horse-battery" },
          ip: "198.51.100.10",
        })
      ).status,
    ).toBe(200);
    const signIn = await call(a, "POST", "/sign-in/email", {
      body: { email, password: "correct-horse-battery" },
      ip: "198.51.100.11",
    });
    expect(signIn.status).toBe(200);
    const token = ((await signIn.json()) as { token: string }).token;
    const cookie = signIn.headers
      .getSetCookie()
      .find((line) => line.startsWith("better-auth.session_token="))!
      .split(";")[0];

    expect((await sessionOn(b, cookie))?.session.token).toBe(token);
    expect((await sessionOn(c, cookie))?.session.token).toBe(token);

    const revoke = await call(c, "POST", "/revoke-session", { body: { token }, cookie });
    expect(revoke.status).toBe(200);
    for (const daemon of daemons) expect(await sessionOn(daemon, cookie)).toBeNull();
  });

  it("holds a sign-in rate limit counted across all three", async () => {
    const ip = "203.0.113.7";
    const attempt = (daemon: Daemon) =>
      call(daemon, "POST", "/sign-in/email", {
        body: { email: "nobody@example.com", password: "wrong-password-1" },
        ip,
      });
    expect((await attempt(daemons[0])).status).toBe(401);
    expect((await attempt(daemons[1])).status).toBe(401);
    expect((await attempt(daemons[2])).status).toBe(401);
    for (const daemon of daemons) {
      const refused = await attempt(daemon);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("x-retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("counts API-key usage exactly when three daemons verify the same key at once", async () => {
    const [a] = daemons;
    const signUp = await call(a, "POST", "/sign-up/email", {
      body: { name: "Keys", email: "keys@example.com", password: "correct-horse-battery" },
      ip: "198.51.100.20",
    });
    const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const created = await call(a, "POST", "/api-key/create", {
      body: { userId, remaining: 6, rateLimitEnabled: false },
      server: true,
    });
    expect(created.status).toBe(200);
    const { key } = (await created.json()) as { key: string };

    const verifications = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call(daemons[i % 3], "POST", "/api-key/verify", {
          body: { key },
          server: true,
          ip: `198.51.100.${30 + i}`,
        }).then((r) => r.json() as Promise<{ valid: boolean }>),
      ),
    );
    expect(verifications.filter((v) => v.valid)).toHaveLength(6);
    expect(verifications.filter((v) => !v.valid)).toHaveLength(9);
  });

  it("reports every daemon ready and exposes its own metrics", async () => {
    for (const daemon of daemons) {
      expect(await (await call(daemon, "GET", "/ready")).json()).toEqual({
        ready: true,
        database: true,
        secondaryStorage: true,
      });
      expect(await (await fetch(`${daemon.url}/metrics`)).text()).toMatch(/^authd_db_pool_max 10$/m);
    }
  });
});
