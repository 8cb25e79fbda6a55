import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateUser } from "../../src/db/repositories/users.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

const DAY = 86_400;
const header = (key: string) => ({ headers: { "x-api-key": key } });

describeEachDialect("API key sessions (x-api-key header)", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("authenticates session routes as the key's owner, get-session included, and counts the use", async () => {
    const { agent, user } = await signUp(t);
    await signUp(t);
    const key = (await agent.post("/api-key/create", { name: "hdr" })).body;
    const anon = () => t.agent();
    const listed = await anon().get("/api-key/list", header(key.key));
    expect(listed.status).toBe(200);
    expect(listed.body.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(listed.body[0].requestCount).toBe(1);
    const sessions = await anon().get("/list-sessions", header(key.key));
    expect(sessions.body.map((s: { userId: string }) => s.userId)).toEqual([user.id]);
    expect((await anon().post("/update-user", { name: "Renamed Via Key" }, header(key.key))).body).toEqual({
      status: true,
    });
    const child = await anon().post("/api-key/create", { name: "child" }, header(key.key));
    expect(child.body).toMatchObject({ name: "child", userId: user.id });

    const session = await anon().get("/get-session", header(key.key));
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ id: user.id, name: "Renamed Via Key" });
    expect(session.body.session).toMatchObject({ id: key.id, userId: user.id });
    expect(Date.parse(session.body.session.expiresAt)).toBe(t.clock.now + 604_800_000);
    expect(session.setCookies).toEqual([]);
    expect((await anon().get("/get-session")).body).toBeNull();
  });

  it("makes the session expire with the key when the key has an expiry", async () => {
    const { agent } = await signUp(t);
    const key = (await agent.post("/api-key/create", { expiresIn: 2 * DAY })).body;
    const session = await t.agent().get("/get-session", header(key.key));
    expect(session.body.session.expiresAt).toBe(key.expiresAt);
  });

  it("refuses unknown (401), short (403) and disabled (401) keys; an empty header is no key", async () => {
    const { agent } = await signUp(t);
    const key = (await agent.post("/api-key/create", {})).body;
    await agent.post("/api-key/update", { keyId: key.id, enabled: false });
    const unknown = await t.agent().get("/list-sessions", header("Z".repeat(64)));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ code: "INVALID_API_KEY", message: "Invalid API key." });
    const short = await t.agent().get("/list-sessions", header("short-key"));
    expect(short.status).toBe(403);
    expect(short.body.code).toBe("INVALID_API_KEY");
    const disabled = await t.agent().get("/list-sessions", header(key.key));
    expect(disabled.status).toBe(401);
    expect(disabled.body).toEqual({ code: "KEY_DISABLED", message: "API Key is disabled" });
    expect((await t.agent().get("/list-sessions", header(""))).status).toBe(401);
  });

  it("answers 429 USAGE_EXCEEDED once remaining is spent and 401 RATE_LIMITED with tryAgainIn in the window", async () => {
    const { user } = await signUp(t);
    const oneShot = (await t.server().post("/api-key/create", { userId: user.id, remaining: 1 })).body;
    expect((await t.agent().get("/api-key/list", header(oneShot.key))).status).toBe(200);
    const spent = await t.agent().get("/api-key/list", header(oneShot.key));
    expect(spent.status).toBe(429);
    expect(spent.body).toEqual({ code: "USAGE_EXCEEDED", message: "API Key has reached its usage limit" });

    const limited = (
      await t.server().post("/api-key/create", { userId: user.id, rateLimitMax: 1, rateLimitTimeWindow: 60_000 })
    ).body;
    expect((await t.agent().get("/api-key/list", header(limited.key))).status).toBe(200);
    t.clock.advance(20_000);
    const refused = await t.agent().get("/api-key/list", header(limited.key));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      code: "RATE_LIMITED",
      message: "Rate limit exceeded.",
      details: { tryAgainIn: 40_000 },
    });
  });

  it("refuses a banned owner and lets them back after the ban ends", async () => {
    const { agent, user } = await signUp(t);
    const one = (await agent.post("/api-key/create", { name: "one" })).body;
    const two = (await agent.post("/api-key/create", { name: "two" })).body;
    await updateUser(t.ctx.db, user.id, { banned: true, banReason: "abuse", banExpires: t.clock.now + 60_000 });
    const refused = await t.agent().post("/api-key/delete", { keyId: two.id }, header(one.key));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: "USER_IS_BANNED", message: "User is banned" });
    expect((await t.agent().get("/get-session", header(one.key))).status).toBe(401);
    t.clock.advance(60_001);
    expect((await t.agent().post("/api-key/delete", { keyId: two.id }, header(one.key))).body).toEqual({
      success: true,
    });
    expect((await agent.get("/api-key/list")).body.map((k: { name: string }) => k.name)).toEqual(["one"]);
  });

  it("counts uses through the header exactly under concurrency", async () => {
    const { user } = await signUp(t);
    const key = (await t.server().post("/api-key/create", { userId: user.id, remaining: 1 })).body;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.agent().get("/list-sessions", header(key.key))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });
});

describe("API key session options", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { apiKey: { headers: ["x-service-key", "x-api-key"] } } });
  });
  afterAll(() => t.close());

  it("reads the key from any configured header", async () => {
    const { agent, user } = await signUp(t);
    const key = (await agent.post("/api-key/create", {})).body;
    const res = await t.agent().get("/get-session", { headers: { "x-service-key": key.key } });
    expect(res.body.user.id).toBe(user.id);
    expect((await t.agent().get("/get-session", header(key.key))).body.user.id).toBe(user.id);
  });

  it("ignores the header when API-key sessions are switched off", async () => {
    const off = await createTestContext({ config: { apiKey: { disableSessionForAPIKeys: true } } });
    try {
      const { agent } = await signUp(off);
      const key = (await agent.post("/api-key/create", {})).body;
      expect((await off.agent().get("/get-session", header(key.key))).body).toBeNull();
      expect((await off.agent().get("/list-sessions", header(key.key))).status).toBe(401);
      expect((await off.server().post("/api-key/verify", { key: key.key })).body.key.requestCount).toBe(1);
    } finally {
      await off.close();
    }
  });
});
