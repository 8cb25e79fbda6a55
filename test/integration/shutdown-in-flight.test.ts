import pg from "pg";
import { describe, expect, it } from "vitest";
import { startAuthd } from "../helpers/live-server.ts";
import { POSTGRES_URL, postgresUnavailableReason } from "../helpers/postgres.ts";
import { redisEnv, redisUnavailableReason } from "../helpers/redis.ts";
import { captureLog } from "../helpers/security-log.ts";

// SIGTERM finishes the requests in flight before the database closes (daemon contract), including one whose
// client has gone: Bun's server.stop(false) no longer waits for those, and the work they do (a sign-in's
// session, its security event, a count) must not be cut off by the database closing under it.

const unavailable = (await postgresUnavailableReason()) ?? (await redisUnavailableReason());
if (unavailable) console.log(`skipping the shutdown test on Postgres and Redis: ${unavailable}`);

describe.skipIf(unavailable !== null)("shutdown with a request in flight", () => {
  it("lets a sign-in whose client went away finish before the context closes", async () => {
    // On Postgres, so that the request can be held up (by a table lock) without holding up the test itself,
    // with Redis, which the sign-in uses after its write (and which closes at once, unlike the pool)
    const log = captureLog();
    const authd = await startAuthd({ dialect: "postgres", env: redisEnv(), logger: log.logger });
    const origin = new URL(authd.t.ctx.baseURL).origin;
    const headers = { "content-type": "application/json", origin };
    const account = { email: "leaving@example.com", password: "correct horse battery" };
    const signedUp = await fetch(`${authd.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...account, name: "Leaving" }),
    });
    expect(signedUp.status).toBe(200);
    log.clear();
    // Given a sign-in held up at its first read (another connection locks the user table), whose client hangs up
    const schema = new URL(authd.t.ctx.config.databaseURL).searchParams.get("schema");
    const blocker = new pg.Client({ connectionString: POSTGRES_URL });
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query(`lock table "${schema}"."user" in access exclusive mode`);
    const client = new AbortController();
    const signIn = fetch(`${authd.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers,
      body: JSON.stringify(account),
      signal: client.signal,
    }).catch(() => "aborted");
    await Bun.sleep(100);
    client.abort();
    expect(await signIn).toBe("aborted");
    // When the daemon shuts down, and the lock goes a moment later
    const closed = authd.close();
    await Bun.sleep(100);
    await blocker.query("commit");
    await blocker.end();
    await closed;
    // Then the sign-in finished its work before the database closed: its event was written, nothing failed
    expect(log.events("sign_in").map((event) => event.outcome)).toEqual(["success"]);
    expect(log.lines.filter((line) => line.includes('"level":"error"')).map((line) => line.slice(0, 300))).toEqual([]);
  });
});
