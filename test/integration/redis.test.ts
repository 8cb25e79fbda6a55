import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthContext, createContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/logger.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import {
  findSession,
  hashSessionToken,
  revokeSession,
  signOutEvent,
  updateSession,
} from "../../src/services/sessions/sessions.ts";
import { updateUser } from "../../src/services/users.ts";
import { Agent } from "../helpers/agent.ts";
import { heardOfChanges } from "../helpers/changes.ts";
import {
  createTestContext,
  DIALECTS,
  type Dialect,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../helpers/context.ts";
import { postgresUnavailableReason } from "../helpers/postgres.ts";
import { REDIS_URL, redisEnv, redisSkipped } from "../helpers/redis.ts";

// Redis as secondary storage: sessions are cached per token and shared by every daemon of a deployment,
// rate-limit counters live in Redis, and the database stays the record.

const postgresSkipped = (await postgresUnavailableReason()) !== null;

/** A second daemon (context + app) on the same database and Redis as the test context, on its clock. */
async function secondDaemon(
  t: TestContext,
): Promise<{ ctx: AuthContext; app: Hono; agent(options?: { from?: string }): Agent }> {
  const ctx = await createContext(t.ctx.config, { logger: silentLogger, now: () => t.clock.now });
  const app = createApp(ctx);
  return {
    ctx,
    app,
    agent: (options = {}) => {
      const agent = new Agent(app, ctx.config.basePath, TEST_ORIGIN);
      return options.from ? agent.connectFrom(options.from) : agent;
    },
  };
}

function copyCookies(from: Agent, to: Agent): Agent {
  for (const [name, value] of from.jar) to.jar.set(name, value);
  return to;
}

/** Every key under the context's prefix with its value (string keys only; others shown by type). */
async function redisContents(t: TestContext): Promise<string> {
  const client = new Bun.RedisClient(REDIS_URL);
  try {
    const keys = (await client.send("KEYS", [`${t.ctx.config.redisKeyPrefix}*`])) as string[];
    const entries = await Promise.all(
      keys.map(
        async (key) =>
          `${key}=${(await client.send("TYPE", [key])) === "string" ? await client.get(key) : "(not a string)"}`,
      ),
    );
    return entries.join("\n");
  } finally {
    client.close();
  }
}

for (const dialect of DIALECTS as Dialect[]) {
  describe.skipIf(redisSkipped || (dialect === "postgres" && postgresSkipped))(
    `Redis secondary storage [${dialect}]`,
    () => {
      let t: TestContext;
      let other: Awaited<ReturnType<typeof secondDaemon>>;
      beforeAll(async () => {
        t = await createTestContext({
          dialect,
          env: { ...redisEnv(), AUTH_RATE_LIMIT: "on" },
          config: { rateLimit: { customRules: { "/sign-up/email": false } } },
        });
        other = await secondDaemon(t);
      });
      afterAll(async () => {
        await other.ctx.close();
        await t.close();
      });

      it("fills Redis on the first read and serves later reads from it", async () => {
        const { agent, token, email } = await signUp(t, { email: `cache.${dialect}@example.com` });
        const res = await agent.get("/get-session", { query: { disableCookieCache: true } });
        expect(res.status).toBe(200);
        expect(res.body.user.email).toBe(email);
        const cached = await t.ctx.secondaryStorage!.get(`session:${hashSessionToken(token!)}`);
        expect(JSON.parse(cached!)).toMatchObject({
          session: { tokenHash: hashSessionToken(token!) },
          user: { email },
        });
        // Served from Redis: the row is gone from the database, the cached entry still answers.
        await t.ctx.db.deleteFrom("session").where("tokenHash", "=", hashSessionToken(token!)).execute();
        expect((await findSession(other.ctx, token!))?.user.email).toBe(email);
      });

      it("shows a user changed on one daemon at once on another, though the session was cached", async () => {
        const { agent, token } = await signUp(t, { name: "Before" });
        const elsewhere = copyCookies(agent, other.agent());
        expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body.user.name).toBe(
          "Before",
        );
        expect((await agent.post("/update-user", { name: "After" })).status).toBe(200);
        // On Postgres the other daemon's memory learns of the change when its notification arrives, just
        // after the commit (docs/security.md, In-process copies).
        await heardOfChanges(other.ctx);
        expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body.user.name).toBe(
          "After",
        );
        // A session changed through the sessions service (here: called directly) shows at once on the other daemon too.
        const current = (await findSession(t.ctx, token!))!.session;
        await updateSession(t.ctx, current, { activeOrganizationId: "org-x" });
        await heardOfChanges(other.ctx);
        expect((await findSession(other.ctx, token!))?.session.activeOrganizationId).toBe("org-x");
      });

      it("shows a session signed in on one daemon to another, and a sign-out on the second ends it on the first", async () => {
        const { agent, token } = await signUp(t);
        const elsewhere = copyCookies(agent, other.agent());
        expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body.session.token).toBe(
          token,
        );
        expect((await elsewhere.post("/sign-out", {})).status).toBe(200);
        expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
        expect(await t.ctx.secondaryStorage!.get(`session:${hashSessionToken(token!)}`)).toBe("revoked");
      });

      it("fills Redis from the database on a miss, and a revoked session is not filled back", async () => {
        const token = (await signUp(t)).token!;
        await t.ctx.secondaryStorage!.delete(`session:${hashSessionToken(token)}`);
        expect((await findSession(other.ctx, token))?.session.token).toBe(token);
        expect(await t.ctx.secondaryStorage!.get(`session:${hashSessionToken(token)}`)).not.toBeNull();
        expect(await revokeSession(t.ctx, token, signOutEvent(CLI_SOURCE))).toBe(true);
        await heardOfChanges(other.ctx);
        expect(await findSession(other.ctx, token)).toBeNull();
        expect(await t.ctx.secondaryStorage!.get(`session:${hashSessionToken(token)}`)).toBe("revoked");
      });

      it("disowns an entry filled between a transaction's write and its commit, a moment later", async () => {
        const { token, user } = await signUp(t, { name: "Before" });
        expect(await findSession(other.ctx, token!)).not.toBeNull();
        await t.ctx.db.transaction().execute(async (trx) => {
          await updateUser(t.ctx, user.id, { name: "After" }, trx);
          // Not committed yet: the other daemon still sees the old user, and caches it under the new generation.
          expect((await findSession(other.ctx, token!))?.user.name).toBe("Before");
        });
        let changed = false;
        for (let attempt = 0; attempt < 40 && !changed; attempt += 1) {
          changed = (await findSession(other.ctx, token!))?.user.name === "After";
          if (!changed) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(changed).toBe(true);
      });

      it("revokes every other session of a user in Redis too", async () => {
        const first = await signUp(t);
        const second = await first.agent
          .connectFrom("10.9.0.1")
          .post("/sign-in/email", { email: first.email, password: first.password });
        expect(second.status).toBe(200);
        const other1 = copyCookies(first.agent, other.agent());
        expect((await other1.get("/get-session", { query: { disableCookieCache: true } })).body).not.toBeNull();
        // first.agent now holds the second session; revoke all others (the sign-up session among them).
        expect((await first.agent.post("/revoke-other-sessions", {})).status).toBe(200);
        expect(await findSession(other.ctx, first.token!)).toBeNull();
        expect((await findSession(other.ctx, second.body.token))?.session.token).toBe(second.body.token);
      });

      it("drops an expired cached session and deletes its row", async () => {
        const token = (await signUp(t)).token!;
        t.clock.advance(8 * 86_400_000);
        try {
          expect(await findSession(t.ctx, token)).toBeNull();
          const row = await t.ctx.db
            .selectFrom("session")
            .select("id")
            .where("tokenHash", "=", hashSessionToken(token))
            .executeTakeFirst();
          expect(row).toBeUndefined();
        } finally {
          t.clock.advance(-8 * 86_400_000);
        }
      });

      it("counts sign-in attempts across daemons in Redis: the fourth on another daemon is refused", async () => {
        const from = "10.1.1.1";
        const body = { email: "nobody@example.com", password: "wrong-password-1" };
        for (let i = 0; i < 3; i += 1) expect((await t.agent({ from }).post("/sign-in/email", body)).status).toBe(401);
        const refused = await other.agent({ from }).post("/sign-in/email", body);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("x-retry-after"))).toBeGreaterThanOrEqual(1);
        t.clock.advance(11_000);
        expect((await other.agent({ from }).post("/sign-in/email", body)).status).toBe(401);
      });

      it("lets exactly the limit through when requests race on two daemons", async () => {
        const from = "10.2.2.2";
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 === 0 ? t : other)
              .agent({ from })
              .post("/sign-in/email", { email: "race@example.com", password: "wrong-password-1" }),
          ),
        );
        expect(results.filter((r) => r.status === 401)).toHaveLength(3);
        expect(results.filter((r) => r.status === 429)).toHaveLength(9);
      });

      it("keeps no session token in Redis, in its keys or its entries", async () => {
        const kept = await signUp(t);
        const revoked = await t.agent().post("/sign-in/email", { email: kept.email, password: kept.password });
        expect(
          (await copyCookies(kept.agent, other.agent()).get("/get-session", { query: { disableCookieCache: true } }))
            .status,
        ).toBe(200);
        expect(await revokeSession(t.ctx, revoked.body.token, signOutEvent(CLI_SOURCE))).toBe(true);
        const contents = await redisContents(t);
        expect(contents).toContain(`session:${hashSessionToken(kept.token!)}={`);
        expect(contents).toContain(`session:${hashSessionToken(revoked.body.token)}=revoked`);
        for (const token of [kept.token!, revoked.body.token]) expect(contents.includes(token)).toBe(false);
      });

      it("revokes by handle on one daemon, and the session cached on another ends at once", async () => {
        const { agent, email, password } = await signUp(t);
        const second = t.agent();
        const signedIn = await second.post("/sign-in/email", { email, password });
        const elsewhere = copyCookies(second, other.agent());
        expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body).not.toBeNull();
        const handle = (await agent.get("/list-sessions")).body.find(
          (s: { token: string }) => s.token === hashSessionToken(signedIn.body.token),
        ).token;
        expect((await agent.post("/revoke-session", { token: handle })).body).toEqual({ status: true });
        // The other daemon's memory learns of it when the change notification arrives, just after commit
        // (on Postgres; docs/security.md, "How soon another daemon refuses a revoked session"): under load
        // that is after this line, so the test waits for it as the line above it in other tests does.
        await heardOfChanges(other.ctx);
        expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
      });

      it("leaves another user's cached session alone (no tombstone) when their handle is sent", async () => {
        const alice = await signUp(t);
        const bob = await signUp(t);
        const bobElsewhere = copyCookies(bob.agent, other.agent());
        expect((await bobElsewhere.get("/get-session", { query: { disableCookieCache: true } })).body).not.toBeNull();
        const [{ token: bobHandle }] = (await bob.agent.get("/list-sessions")).body;
        expect((await alice.agent.post("/revoke-session", { token: bobHandle })).status).toBe(401);
        expect(await t.ctx.secondaryStorage!.get(`session:${bobHandle}`)).not.toBe("revoked");
        expect((await bobElsewhere.get("/get-session", { query: { disableCookieCache: true } })).body.user.id).toBe(
          bob.user.id,
        );
      });

      it("reports ready while the database and Redis answer", async () => {
        const res = await t.agent().get("/ready");
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ready: true, database: true, secondaryStorage: true });
      });
    },
  );
}
