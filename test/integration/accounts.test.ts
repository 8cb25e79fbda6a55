import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../../src/crypto/random.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

/** Link a social account the way the social sign-in stores one. */
async function linkSocial(
  t: TestContext,
  userId: string,
  providerId: string,
  accountId: string,
  scope: string | null = null,
) {
  const now = t.ctx.now();
  await t.ctx.db
    .insertInto("account")
    .values({
      id: generateId(),
      userId,
      providerId,
      accountId,
      password: null,
      accessToken: "at",
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope,
      createdAt: now + 1,
      updatedAt: now + 1,
    })
    .execute();
}

const providersOf = async (agent: ReturnType<TestContext["agent"]>) =>
  ((await agent.get("/list-accounts")).body as { provider: string }[]).map((a) => a.provider);

describeEachDialect("linked accounts", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("lists the caller's credential and social accounts with their scopes", async () => {
    const { agent, user } = await signUp(t);
    await linkSocial(t, user.id, "github", "gh-123", "read:user,user:email");
    const res = await agent.get("/list-accounts");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({
      id: expect.any(String),
      provider: "credential",
      accountId: user.id,
      scopes: [],
      createdAt: user.createdAt,
      updatedAt: user.createdAt,
    });
    expect(res.body[1]).toMatchObject({ provider: "github", accountId: "gh-123", scopes: ["read:user", "user:email"] });
    expect((await t.agent().get("/list-accounts")).status).toBe(401);
  });

  it("unlinks a social account by provider (and account id), leaving the rest", async () => {
    const { agent, user } = await signUp(t);
    await linkSocial(t, user.id, "github", "gh-1");
    await linkSocial(t, user.id, "google", "g-1");
    const wrongId = await agent.post("/unlink-account", { providerId: "github", accountId: "gh-2" });
    expect(wrongId.status).toBe(400);
    expect(wrongId.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    expect((await agent.post("/unlink-account", { providerId: "github", accountId: "gh-1" })).body).toEqual({
      status: true,
    });
    expect((await agent.post("/unlink-account", { providerId: "google" })).body).toEqual({ status: true });
    expect(await providersOf(agent)).toEqual(["credential"]);
  });

  it("refuses to unlink the last account", async () => {
    const { agent } = await signUp(t);
    const res = await agent.post("/unlink-account", { providerId: "credential" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT",
      message: "You can't unlink your last account",
    });
    expect(await providersOf(agent)).toEqual(["credential"]);
  });

  it("keeps one account when the last two are unlinked concurrently", async () => {
    const { agent, user } = await signUp(t);
    await linkSocial(t, user.id, "github", "gh-race");
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        agent.post("/unlink-account", { providerId: i % 2 === 0 ? "github" : "credential" }),
      ),
    );
    expect(attempts.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await providersOf(agent)).toHaveLength(1);
  });

  it("needs a fresh session", async () => {
    const { agent, user } = await signUp(t);
    await linkSocial(t, user.id, "github", "gh-stale");
    t.clock.advance(86_401 * 1000);
    const res = await agent.post("/unlink-account", { providerId: "github" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" });
  });
});

describe("linked accounts with unlinking all allowed and the fresh check off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { account: { accountLinking: { allowUnlinkingAll: true } }, session: { freshAge: 0 } },
    });
  });
  afterAll(() => t.close());

  it("unlinks the last account from an old session", async () => {
    const { agent } = await signUp(t);
    t.clock.advance(3 * 86_400 * 1000);
    expect((await agent.post("/unlink-account", { providerId: "credential" })).body).toEqual({ status: true });
    expect(await providersOf(agent)).toEqual([]);
  });
});
