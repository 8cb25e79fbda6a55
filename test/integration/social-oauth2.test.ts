import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { type FakeGitHub, gitHubConfig, startFakeGitHub } from "../helpers/fake-github.ts";

// Social sign-in through a plain OAuth 2.0 provider shaped like GitHub (token endpoint, /user,
// /user/emails, no ID token), a small server in test/helpers so each failure is one switch away.

describeEachDialect("social sign-in through a plain OAuth 2.0 provider (GitHub-like)", (dialect) => {
  let gh: FakeGitHub;
  let t: TestContext;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    t = await createTestContext({ dialect, config: { social: { github: gitHubConfig(gh) } } });
  });
  afterAll(async () => {
    await t.close();
    await gh.close();
  });
  beforeEach(() => {
    gh.userMode = "ok";
  });

  /** sign-in/social, the provider's immediate redirect, then the daemon's callback. */
  async function signInWithGitHub(agent: Agent, body: Record<string, unknown> = {}) {
    const start = await agent.post("/sign-in/social", {
      provider: "github",
      callbackURL: "/home",
      errorCallbackURL: "/failed",
      ...body,
    });
    expect(start.status).toBe(200);
    const authorize = await fetch(start.body.url, { redirect: "manual" });
    const back = new URL(authorize.headers.get("location")!);
    const callback = await agent.get(back.pathname + back.search);
    return { start, callback, location: callback.headers.get("location") };
  }
  const usersWithEmail = (email: string) =>
    t.ctx.db.selectFrom("user").selectAll().where("email", "=", email).execute();
  const hasSessionCookie = (setCookies: string[]) =>
    setCookies.some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"));

  it("signs up with the verified primary address from the emails endpoint", async () => {
    gh.user = { id: 1001, login: "octocat", name: null, email: null, avatar_url: "https://avatars.example/1001" };
    gh.emails = [
      { email: "old@example.com", primary: false, verified: true },
      { email: "Octo@Example.com", primary: true, verified: true },
    ];
    const agent = t.agent();
    const { start, location } = await signInWithGitHub(agent);
    const authURL = new URL(start.body.url);
    expect(authURL.searchParams.get("scope")).toBe("read:user user:email");
    expect(authURL.searchParams.get("client_id")).toBe("gh-client");
    expect(location).toBe("/home");
    const { user } = (await agent.get("/get-session")).body;
    expect(user).toMatchObject({
      email: "octo@example.com",
      name: "octocat",
      emailVerified: true,
      image: "https://avatars.example/1001",
    });
    const account = await t.ctx.db
      .selectFrom("account")
      .selectAll()
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ providerId: "github", accountId: "1001", scope: "read:user,user:email" });
    // The PKCE verifier sent with the code is 128 characters.
    expect(gh.tokenRequests.at(-1)?.get("code_verifier")).toMatch(/^[A-Za-z0-9]{128}$/);
  });

  it("invalid_code when the token endpoint refuses the code", async () => {
    const browser = t.agent();
    const start = await browser.post("/sign-in/social", {
      provider: "github",
      callbackURL: "/home",
      errorCallbackURL: "/failed",
    });
    const state = new URL(start.body.url).searchParams.get("state")!;
    const res = await browser.get("/callback/github", { query: { state, code: "not-a-real-code" } });
    expect(res.headers.get("location")).toBe("/failed?error=invalid_code");
  });

  it("unable_to_get_user_info, and no user, when the user endpoint fails or hangs", async () => {
    gh.user = { id: 2002, login: "flaky", name: "Flaky", email: "flaky@example.com" };
    gh.emails = [{ email: "flaky@example.com", primary: true, verified: true }];
    for (const mode of ["error", "hang"] as const) {
      gh.userMode = mode;
      const { callback, location } = await signInWithGitHub(t.agent());
      expect(location).toBe("/failed?error=unable_to_get_user_info");
      expect(hasSessionCookie(callback.setCookies)).toBe(false);
    }
    expect(await usersWithEmail("flaky@example.com")).toHaveLength(0);
  });

  it("an empty profile never signs in or links an existing user", async () => {
    const victim = await signUp(t, { email: "victim@example.com" });
    gh.user = {};
    gh.emails = [{ email: "victim@example.com", primary: true, verified: true }];
    const { callback, location } = await signInWithGitHub(t.agent());
    expect(location).toBe("/failed?error=unable_to_get_user_info");
    expect(hasSessionCookie(callback.setCookies)).toBe(false);
    const accounts = await t.ctx.db
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", victim.user.id)
      .execute();
    expect(accounts.map((a) => a.providerId)).toEqual(["credential"]);
  });

  it("email_not_found when the provider releases no address", async () => {
    gh.user = { id: 3003, login: "private", name: "Private", email: null };
    gh.emails = [];
    expect((await signInWithGitHub(t.agent())).location).toBe("/failed?error=email_not_found");
  });

  it("account_not_linked when the address matches a user but is unverified at the provider", async () => {
    const existing = await signUp(t, { email: "unverified@example.com" });
    gh.user = { id: 4004, login: "claimer", name: "Claimer", email: "unverified@example.com" };
    gh.emails = [{ email: "unverified@example.com", primary: true, verified: false }];
    const { callback, location } = await signInWithGitHub(t.agent());
    expect(location).toBe("/failed?error=account_not_linked");
    expect(hasSessionCookie(callback.setCookies)).toBe(false);
    expect(
      await t.ctx.db
        .selectFrom("account")
        .select("id")
        .where("userId", "=", existing.user.id)
        .where("providerId", "=", "github")
        .execute(),
    ).toHaveLength(0);
  });

  it("refreshes GitHub tokens with /refresh-token and get-access-token", async () => {
    gh.user = { id: 5005, login: "refresher", name: "Refresher", email: "refresher@example.com" };
    gh.emails = [{ email: "refresher@example.com", primary: true, verified: true }];
    const agent = t.agent();
    await signInWithGitHub(agent);
    const before = await agent.post("/get-access-token", { providerId: "github" });
    expect(before.body.scopes).toEqual(["read:user", "user:email"]);
    const refreshed = await agent.post("/refresh-token", { providerId: "github" });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).not.toBe(before.body.accessToken);
    expect(refreshed.body.refreshToken).toBeTruthy();
    t.clock.advance(28_800_000);
    const again = await agent.post("/get-access-token", { providerId: "github" });
    expect(again.body.accessToken).not.toBe(refreshed.body.accessToken);
    const info = await agent.post("/account-info", { accountId: "5005" });
    expect(info.status, info.text).toBe(200);
    expect(info.body.user).toMatchObject({ id: "5005", email: "refresher@example.com", emailVerified: true });
  });

  it("unlinks a social account from a user who keeps another, and refuses to unlink a last one", async () => {
    const owner = await signUp(t, { email: "unlinker@example.com" });
    gh.user = { id: 7007, login: "unlinker", name: "Unlinker", email: "unlinker@example.com" };
    gh.emails = [{ email: "unlinker@example.com", primary: true, verified: true }];
    const start = await owner.agent.post("/link-social", { provider: "github", callbackURL: "/settings" });
    const back = new URL((await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!);
    expect((await owner.agent.get(back.pathname + back.search)).headers.get("location")).toBe("/settings");
    const listed = await owner.agent.get("/list-accounts");
    expect(listed.body.map((a: { provider: string }) => a.provider).sort()).toEqual(["credential", "github"]);
    expect(listed.body.find((a: { provider: string }) => a.provider === "github")).toMatchObject({
      accountId: "7007",
      scopes: ["read:user", "user:email"],
    });

    const unlinked = await owner.agent.post("/unlink-account", { providerId: "github", accountId: "7007" });
    expect(unlinked.status).toBe(200);
    expect((await owner.agent.get("/list-accounts")).body.map((a: { provider: string }) => a.provider)).toEqual([
      "credential",
    ]);
    expect((await owner.agent.post("/get-access-token", { providerId: "github" })).body.code).toBe("ACCOUNT_NOT_FOUND");

    // A user who only ever signed in through the provider has nothing else to fall back on.
    gh.user = { id: 7008, login: "socialonly", name: "Social Only", email: "socialonly@example.com" };
    gh.emails = [{ email: "socialonly@example.com", primary: true, verified: true }];
    const agent = t.agent();
    await signInWithGitHub(agent);
    const refused = await agent.post("/unlink-account", { providerId: "github", accountId: "7008" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT");
  });

  it("answers the request-level refusals of sign-in/social", async () => {
    const agent = t.agent();
    const unknown = await agent.post("/sign-in/social", { provider: "myspace", callbackURL: "/home" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    const noCallback = await agent.post("/sign-in/social", { provider: "github" });
    expect(noCallback.status).toBe(400);
    expect(noCallback.body.message).toBe("callbackURL is required");
    const untrusted = await agent.post("/sign-in/social", {
      provider: "github",
      callbackURL: "https://evil.example/steal",
    });
    expect(untrusted.status).toBe(403);
    expect(untrusted.body.code).toBe("INVALID_CALLBACKURL");
    const idToken = await agent.post("/sign-in/social", { provider: "github", idToken: { token: "a.b.c" } });
    expect(idToken.status).toBe(404);
    expect(idToken.body).toEqual({ code: "ID_TOKEN_NOT_SUPPORTED", message: "id_token not supported" });
    const noProvider = await agent.post("/sign-in/social", { callbackURL: "/home" });
    expect(noProvider.status).toBe(400);
    expect(noProvider.body.message).toBe("provider is required");
    const disabled = await agent.post("/sign-in/social", {
      provider: "github",
      callbackURL: "/home",
      disableRedirect: true,
    });
    expect(disabled.body.redirect).toBe(false);
  });
});

describe("social sign-in that cannot create the user or the session [sqlite]", () => {
  let gh: FakeGitHub;
  let t: TestContext;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    t = await createTestContext({
      config: {
        social: { github: gitHubConfig(gh) },
        // A required extra field without a default: a provider profile cannot supply it.
        userAdditionalFields: { company: { type: "string", required: true } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await gh.close();
  });

  it("unable_to_create_user, with no user left behind", async () => {
    gh.user = { id: 6006, login: "newbie", name: "Newbie", email: "newbie@example.com" };
    gh.emails = [{ email: "newbie@example.com", primary: true, verified: true }];
    const agent = t.agent();
    const start = await agent.post("/sign-in/social", { provider: "github", callbackURL: "/home" });
    const back = new URL((await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!);
    const res = await agent.get(back.pathname + back.search);
    expect(res.headers.get("location")).toBe(`${TEST_ORIGIN}/account/error?error=unable_to_create_user`);
    expect(
      await t.ctx.db.selectFrom("user").select("id").where("email", "=", "newbie@example.com").execute(),
    ).toHaveLength(0);
  });

  it("a banned user is sent to the error URL with no session", async () => {
    const banned = await signUp(t, { email: "banned@example.com", company: "ACME" });
    await t.ctx.db
      .updateTable("user")
      .set({ banned: true, banReason: "spam" })
      .where("id", "=", banned.user.id)
      .execute();
    await t.ctx.db.deleteFrom("session").where("userId", "=", banned.user.id).execute();
    gh.user = { id: 6007, login: "banned", name: "Banned", email: "banned@example.com" };
    gh.emails = [{ email: "banned@example.com", primary: true, verified: true }];
    const agent = t.agent();
    const start = await agent.post("/sign-in/social", {
      provider: "github",
      callbackURL: "/home",
      errorCallbackURL: "/failed",
    });
    const back = new URL((await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!);
    const res = await agent.get(back.pathname + back.search);
    expect(res.headers.get("location")).toMatch(/^\/failed\?error=banned&error_description=/);
    expect(res.setCookies.some((c) => c.includes("session_token="))).toBe(false);
    expect(
      await t.ctx.db.selectFrom("session").select("id").where("userId", "=", banned.user.id).execute(),
    ).toHaveLength(0);
  });

  // Last in this block: it breaks the database on purpose.
  it("a database fault mid-callback ends on the error URL, not on a JSON 500", async () => {
    gh.user = { id: 6008, login: "unlucky", name: "Unlucky", email: "unlucky@example.com" };
    gh.emails = [{ email: "unlucky@example.com", primary: true, verified: true }];
    const agent = t.agent();
    const start = await agent.post("/sign-in/social", {
      provider: "github",
      callbackURL: "/home",
      errorCallbackURL: "/failed",
    });
    await sql`drop table account`.execute(t.ctx.db);
    const back = new URL((await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!);
    const res = await agent.get(back.pathname + back.search);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/failed?error=internal_server_error");
  });
});
