import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { Browser, EXTRA_REDIRECT_URI, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";

// The whole social flow against a real OpenID Connect provider (oidc-provider) on loopback, configured
// only through its issuer: discovery, PKCE, code exchange, ID token, user info, refresh.

const PROVIDER_IDS = ["oidc", "oidc-closed", "oidc-invite", "oidc-trusted"];
const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
/** Read the session from the database, not the cookie cache, to see revocations at once. */
const LIVE = { query: { disableCookieCache: true } };

describeEachDialect("social sign-in through an OpenID Connect provider", (dialect) => {
  let op: TestOpenIdProvider;
  let t: TestContext;

  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: PROVIDER_IDS.map((id) => CALLBACK_PREFIX + id) });
    const base = { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer };
    t = await createTestContext({
      dialect,
      config: {
        trustedOrigins: ["http://app.example.test"],
        social: {
          oidc: { ...base, scopes: ["openid", "email", "profile", "offline_access"], prompt: "consent" },
          "oidc-closed": { ...base, disableSignUp: true },
          "oidc-invite": { ...base, disableImplicitSignUp: true },
          "oidc-trusted": { ...base, trusted: true },
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  /** sign-in/social (or link-social), then the provider's login and consent, then the daemon's callback. */
  async function throughProvider(
    agent: Agent,
    login: string,
    body: Record<string, unknown> = {},
    path = "/sign-in/social",
  ) {
    const start = await agent.post(path, { provider: "oidc", callbackURL: "/dashboard", ...body });
    expect(start.status).toBe(200);
    const back = await new Browser().authorize(start.body.url, login, CALLBACK_PREFIX);
    const callback = await agent.get(back.pathname + back.search);
    expect(callback.status).toBe(302);
    const callbackPath = back.pathname + back.search;
    return {
      start,
      callback,
      callbackPath,
      location: callback.headers.get("location") ?? "",
      state: new URL(start.body.url).searchParams.get("state")!,
    };
  }

  const accountsOf = (userId: string) =>
    t.ctx.db.selectFrom("account").selectAll().where("userId", "=", userId).execute();

  describe("sign-up and sign-in", () => {
    it("signs a new user up through the provider and sends them to newUserCallbackURL with a session", async () => {
      op.accounts.set("alice", { email: "Alice@Example.COM", email_verified: true, name: "Alice Liddell" });
      const agent = t.agent();
      const { start, location, state } = await throughProvider(agent, "alice", { newUserCallbackURL: "/welcome" });

      const url = new URL(start.body.url);
      expect(start.body.redirect).toBe(true);
      expect(url.origin).toBe(op.issuer);
      expect(state).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("redirect_uri")).toBe(`${CALLBACK_PREFIX}oidc`);
      expect(location).toBe("/welcome");
      // The state record is single-use: gone after the callback.
      expect(
        await t.ctx.db.selectFrom("verification").selectAll().where("identifier", "=", state).execute(),
      ).toHaveLength(0);

      const session = await agent.get("/get-session");
      expect(session.body.user).toMatchObject({
        email: "alice@example.com",
        name: "Alice Liddell",
        emailVerified: true,
      });
      const [account] = await accountsOf(session.body.user.id);
      expect(account).toMatchObject({ providerId: "oidc", accountId: "alice", password: null });
      expect(account.accessToken).toBeTruthy();
      expect(account.refreshToken).toBeTruthy();
      expect(account.idToken).toBeTruthy();
      expect(account.scope?.split(",")).toContain("openid");
      expect(Number(account.accessTokenExpiresAt)).toBeGreaterThan(t.ctx.now());
    });

    it("signs the same provider user in again, to callbackURL, without a second user or account", async () => {
      const agent = t.agent();
      const { location } = await throughProvider(agent, "alice", { newUserCallbackURL: "/welcome" });
      expect(location).toBe("/dashboard");
      const session = await agent.get("/get-session");
      expect(session.body.user.email).toBe("alice@example.com");
      expect(await accountsOf(session.body.user.id)).toHaveLength(1);
      const users = await t.ctx.db.selectFrom("user").select("id").where("email", "=", "alice@example.com").execute();
      expect(users).toHaveLength(1);
    });

    it("does not accept the same state twice (a replayed callback must restart)", async () => {
      const agent = t.agent();
      const { location, callbackPath } = await throughProvider(agent, "alice");
      expect(location).toBe("/dashboard");
      const replay = await t.agent().get(callbackPath);
      expect(replay.headers.get("location")).toBe(`${TEST_ORIGIN}/account/error?error=please_restart_the_process`);
      expect(replay.setCookies.some((c) => c.includes("session_token"))).toBe(false);
    });

    it("links the provider account to an existing verified user when the provider verified the email, keeping the password", async () => {
      const existing = await signUp(t, { email: "bob@example.com", name: "Bob" });
      await t.ctx.db.updateTable("user").set({ emailVerified: true }).where("id", "=", existing.user.id).execute();
      op.accounts.set("bob", { email: "BOB@example.com", email_verified: true, name: "Bobby" });
      const agent = t.agent();
      const { location } = await throughProvider(agent, "bob");
      expect(location).toBe("/dashboard");
      const session = await agent.get("/get-session");
      expect(session.body.user.id).toBe(existing.user.id);
      expect((await accountsOf(existing.user.id)).map((a) => a.providerId).sort()).toEqual(["credential", "oidc"]);
      expect((await existing.agent.get("/get-session", LIVE)).body.user.id).toBe(existing.user.id);
      expect(
        (await t.agent().post("/sign-in/email", { email: "bob@example.com", password: existing.password })).status,
      ).toBe(200);
    });

    it("a pre-registered look-alike loses the account when the owner signs in through a provider that verified the email", async () => {
      // Given an attacker who signed up with the victim's address and a password of their own, never verified, signed in twice
      const attacker = await signUp(t, {
        email: "victor@example.com",
        name: "Not Victor",
        password: "attacker-password-1",
      });
      const attackerElsewhere = t.agent();
      expect(
        (
          await attackerElsewhere.post("/sign-in/email", {
            email: "victor@example.com",
            password: "attacker-password-1",
          })
        ).status,
      ).toBe(200);

      // When the real owner signs in through the provider, which says the address is verified
      op.accounts.set("victor", { email: "victor@example.com", email_verified: true, name: "Victor" });
      const victim = t.agent();
      const { location } = await throughProvider(victim, "victor");

      // Then the owner is signed in to that user, now verified, and only the provider account remains
      expect(location).toBe("/dashboard");
      const session = await victim.get("/get-session", LIVE);
      expect(session.body.user).toMatchObject({
        id: attacker.user.id,
        email: "victor@example.com",
        emailVerified: true,
      });
      expect((await accountsOf(attacker.user.id)).map((a) => a.providerId)).toEqual(["oidc"]);
      // And the attacker's sessions and password no longer work
      expect((await attacker.agent.get("/get-session", LIVE)).body).toBeNull();
      expect((await attackerElsewhere.get("/get-session", LIVE)).body).toBeNull();
      const again = await t
        .agent()
        .post("/sign-in/email", { email: "victor@example.com", password: "attacker-password-1" });
      expect(again.status).toBe(401);
      expect(again.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
      expect((await victim.get("/get-session", LIVE)).body.user.id).toBe(attacker.user.id);
    });

    it("refuses to link an existing user when the provider did not verify the email (account_not_linked)", async () => {
      const existing = await signUp(t, { email: "carol@example.com" });
      op.accounts.set("carol", { email: "carol@example.com", email_verified: false, name: "Mallory posing as Carol" });
      const agent = t.agent();
      const { callback, location } = await throughProvider(agent, "carol", {
        errorCallbackURL: "http://app.example.test/oops",
      });
      expect(location).toBe("http://app.example.test/oops?error=account_not_linked");
      expect(callback.setCookies.some((c) => c.includes("session_token"))).toBe(false);
      expect((await accountsOf(existing.user.id)).map((a) => a.providerId)).toEqual(["credential"]);
    });

    it("links an unverified email when the provider is configured as trusted", async () => {
      const existing = await signUp(t, { email: "dan@example.com" });
      op.accounts.set("dan", { email: "dan@example.com", email_verified: false });
      const agent = t.agent();
      const { location } = await throughProvider(agent, "dan", { provider: "oidc-trusted" });
      expect(location).toBe("/dashboard");
      expect((await agent.get("/get-session")).body.user.id).toBe(existing.user.id);
      // The pre-existing password of the never-verified account goes, as do its sessions; the provider
      // did not vouch for the address, so it stays unverified.
      expect((await accountsOf(existing.user.id)).map((a) => a.providerId)).toEqual(["oidc-trusted"]);
      expect((await existing.agent.get("/get-session", LIVE)).body).toBeNull();
      expect((await agent.get("/get-session", LIVE)).body.user.emailVerified).toBe(false);
    });

    it("refuses new users when sign-up is disabled, and implicit sign-up unless requested", async () => {
      op.accounts.set("erin", { email: "erin@example.com", email_verified: true });
      const closed = await throughProvider(t.agent(), "erin", { provider: "oidc-closed" });
      expect(closed.location).toBe(`${TEST_ORIGIN}/account/error?error=signup_disabled`);
      const implicit = await throughProvider(t.agent(), "erin", { provider: "oidc-invite" });
      expect(implicit.location).toBe(`${TEST_ORIGIN}/account/error?error=signup_disabled`);
      expect(
        await t.ctx.db.selectFrom("user").select("id").where("email", "=", "erin@example.com").execute(),
      ).toHaveLength(0);

      const agent = t.agent();
      const requested = await throughProvider(agent, "erin", { provider: "oidc-invite", requestSignUp: true });
      expect(requested.location).toBe("/dashboard");
      expect((await agent.get("/get-session")).body.user.email).toBe("erin@example.com");
    });
  });

  describe("ID token sign-in", () => {
    /** What a client app does on its own: authorize with a nonce and exchange the code for an ID token. */
    async function obtainIdToken(login: string, nonce: string): Promise<string> {
      const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<
        string,
        string
      >;
      const url = new URL(discovery.authorization_endpoint);
      url.search = new URLSearchParams({
        client_id: op.clientId,
        response_type: "code",
        scope: "openid email profile",
        redirect_uri: EXTRA_REDIRECT_URI,
        nonce,
        state: "client-state",
      }).toString();
      const back = await new Browser().authorize(url.toString(), login, EXTRA_REDIRECT_URI);
      const res = await fetch(discovery.token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: back.searchParams.get("code")!,
          redirect_uri: EXTRA_REDIRECT_URI,
          client_id: op.clientId,
          client_secret: op.clientSecret,
        }),
      });
      return ((await res.json()) as { id_token: string }).id_token;
    }

    it("signs in with a verified ID token and its nonce, creating the user", async () => {
      op.accounts.set("frank", { email: "Frank@example.com", email_verified: true, name: "Frank" });
      const idToken = await obtainIdToken("frank", "nonce-frank-1");
      const agent = t.agent();
      const res = await agent.post("/sign-in/social", {
        provider: "oidc",
        idToken: { token: idToken, nonce: "nonce-frank-1" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        redirect: false,
        user: { email: "frank@example.com", name: "Frank", emailVerified: true },
      });
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect((await agent.get("/get-session")).body.user.email).toBe("frank@example.com");
    });

    it("links through an ID token to the signed-in user with the same email, not to another", async () => {
      const owner = await signUp(t, { email: "pat@example.com" });
      op.accounts.set("pat", { email: "pat@example.com", email_verified: true });
      const linked = await owner.agent.post("/link-social", {
        provider: "oidc",
        idToken: { token: await obtainIdToken("pat", "nonce-pat"), nonce: "nonce-pat" },
      });
      expect(linked.status).toBe(200);
      expect(linked.body).toEqual({ redirect: false, url: "", status: true });
      expect((await accountsOf(owner.user.id)).map((a) => a.providerId).sort()).toEqual(["credential", "oidc"]);

      const other = await signUp(t, { email: "quinn@example.com" });
      op.accounts.set("not-quinn", { email: "someone@example.com", email_verified: true });
      const refused = await other.agent.post("/link-social", {
        provider: "oidc",
        idToken: { token: await obtainIdToken("not-quinn", "n") },
      });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        code: "ACCOUNT_NOT_LINKED__DIFFERENT_EMAILS_NOT_ALLOWED",
        message: "Account not linked - different emails not allowed",
      });
    });

    it("an ID-token sign-in takes a never-verified look-alike account the same way", async () => {
      // Given an attacker's unverified pre-registration of the address
      const attacker = await signUp(t, { email: "wendy@example.com", password: "attacker-password-2" });
      op.accounts.set("wendy", { email: "wendy@example.com", email_verified: true, name: "Wendy" });

      // When the owner signs in with an ID token from the provider
      const victim = t.agent();
      const res = await victim.post("/sign-in/social", {
        provider: "oidc",
        idToken: { token: await obtainIdToken("wendy", "nonce-wendy"), nonce: "nonce-wendy" },
      });

      // Then the answer shows the now verified user, and the attacker's password and session are gone
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: attacker.user.id, emailVerified: true });
      expect((await accountsOf(attacker.user.id)).map((a) => a.providerId)).toEqual(["oidc"]);
      expect((await attacker.agent.get("/get-session", LIVE)).body).toBeNull();
      expect(
        (await t.agent().post("/sign-in/email", { email: "wendy@example.com", password: "attacker-password-2" }))
          .status,
      ).toBe(401);
      expect((await victim.get("/get-session", LIVE)).body.user.id).toBe(attacker.user.id);
    });

    it("refuses an ID token with the wrong nonce or a forged signature (401 invalid token)", async () => {
      op.accounts.set("grace", { email: "grace@example.com", email_verified: true });
      const idToken = await obtainIdToken("grace", "nonce-grace");
      const wrongNonce = await t
        .agent()
        .post("/sign-in/social", { provider: "oidc", idToken: { token: idToken, nonce: "another-nonce" } });
      expect(wrongNonce.status).toBe(401);
      expect(wrongNonce.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      const [header, payload] = idToken.split(".");
      const forgedPayload = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), email: "alice@example.com" }),
      ).toString("base64url");
      const forged = await t.agent().post("/sign-in/social", {
        provider: "oidc",
        idToken: { token: `${header}.${forgedPayload}.${idToken.split(".")[2]}` },
      });
      expect(forged.status).toBe(401);
      expect(
        await t.ctx.db.selectFrom("user").select("id").where("email", "=", "grace@example.com").execute(),
      ).toHaveLength(0);
    });
  });

  describe("provider tokens", () => {
    it("returns the stored access token, and refreshes it when it expires in under 5 seconds", async () => {
      op.accounts.set("heidi", { email: "heidi@example.com", email_verified: true });
      const agent = t.agent();
      await throughProvider(agent, "heidi");
      const first = await agent.post("/get-access-token", { providerId: "oidc" });
      expect(first.status).toBe(200);
      expect(first.body.accessToken).toBeTruthy();
      expect(first.body.scopes).toContain("openid");
      expect(first.body.idToken).toBeTruthy();
      const again = await agent.post("/get-access-token", { providerId: "oidc" });
      expect(again.body.accessToken).toBe(first.body.accessToken);

      t.clock.advance(3600_000 - 3_000);
      const refreshed = await agent.post("/get-access-token", { providerId: "oidc" });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.accessToken).not.toBe(first.body.accessToken);
      expect(Date.parse(refreshed.body.accessTokenExpiresAt)).toBeGreaterThan(
        Date.parse(first.body.accessTokenExpiresAt),
      );
      // The provider accepts the new token.
      const userInfo = await fetch(`${op.issuer}/me`, {
        headers: { authorization: `Bearer ${refreshed.body.accessToken}` },
      });
      expect(((await userInfo.json()) as { sub: string }).sub).toBe("heidi");
    });

    it("refreshes on demand with /refresh-token and stores the new tokens", async () => {
      op.accounts.set("ivan", { email: "ivan@example.com", email_verified: true });
      const agent = t.agent();
      await throughProvider(agent, "ivan");
      const before = await agent.post("/get-access-token", { providerId: "oidc" });
      const res = await agent.post("/refresh-token", { providerId: "oidc" });
      expect(res.status).toBe(200);
      expect(res.body.accessToken).toBeTruthy();
      expect(res.body.accessToken).not.toBe(before.body.accessToken);
      const after = await agent.post("/get-access-token", { providerId: "oidc" });
      expect(after.body.accessToken).toBe(res.body.accessToken);
    });

    it("shows account info for the caller's own account only; the server may name a user", async () => {
      op.accounts.set("judy", { email: "judy@example.com", email_verified: true, name: "Judy" });
      const judy = t.agent();
      await throughProvider(judy, "judy");
      const info = await judy.post("/account-info", { accountId: "judy" });
      expect(info.status).toBe(200);
      expect(info.body.user).toMatchObject({ id: "judy", email: "judy@example.com", emailVerified: true });
      expect(info.body.data.sub).toBe("judy");

      const other = await signUp(t);
      const refused = await other.agent.post("/account-info", { accountId: "judy" });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
      expect((await other.agent.post("/get-access-token", { providerId: "oidc" })).body.code).toBe("ACCOUNT_NOT_FOUND");

      const judyId = (await judy.get("/get-session")).body.user.id;
      const asServer = await t.server().post("/get-access-token", { providerId: "oidc", userId: judyId });
      expect(asServer.status).toBe(200);
      expect(asServer.body.accessToken).toBeTruthy();
      expect((await t.agent().post("/get-access-token", { providerId: "oidc", userId: judyId })).status).toBe(401);
    });
  });

  describe("link-social", () => {
    it("links a provider account to the signed-in user and refuses it to a second user", async () => {
      const owner = await signUp(t, { email: "kim@example.com" });
      op.accounts.set("kim", { email: "kim@example.com", email_verified: true });
      const linked = await throughProvider(owner.agent, "kim", { callbackURL: "/settings" }, "/link-social");
      expect(linked.location).toBe("/settings");
      expect((await accountsOf(owner.user.id)).map((a) => a.providerId).sort()).toEqual(["credential", "oidc"]);

      const intruder = await signUp(t, { email: "kim2@example.com" });
      const refused = await throughProvider(
        intruder.agent,
        "kim",
        { callbackURL: "/settings", errorCallbackURL: "/settings/error" },
        "/link-social",
      );
      expect(refused.location).toBe("/settings/error?error=account_already_linked_to_different_user");
      expect((await accountsOf(intruder.user.id)).map((a) => a.providerId)).toEqual(["credential"]);
    });

    it("refuses to link a provider account whose email differs from the user's", async () => {
      const owner = await signUp(t, { email: "leo@example.com" });
      op.accounts.set("leo-other", { email: "someone-else@example.com", email_verified: true });
      const res = await throughProvider(owner.agent, "leo-other", { callbackURL: "/settings" }, "/link-social");
      expect(res.location).toBe(`${TEST_ORIGIN}/account/error?error=unable_to_link_account`);
      expect((await accountsOf(owner.user.id)).map((a) => a.providerId)).toEqual(["credential"]);
    });

    it("requires a session", async () => {
      const res = await t.agent().post("/link-social", { provider: "oidc", callbackURL: "/settings" });
      expect(res.status).toBe(401);
    });
  });
});

describe("social callback failures [sqlite]", () => {
  let op: TestOpenIdProvider;
  let t: TestContext;
  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: [`${CALLBACK_PREFIX}oidc`] });
    t = await createTestContext({
      config: { social: { oidc: { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  const errorPage = (code: string) => `${TEST_ORIGIN}/account/error?error=${code}`;
  // One browser per flow: the callback must come back to the browser that started it.
  async function startState(body: Record<string, unknown> = {}): Promise<{ state: string; agent: Agent }> {
    const agent = t.agent();
    const res = await agent.post("/sign-in/social", { provider: "oidc", callbackURL: "/dashboard", ...body });
    return { state: new URL(res.body.url).searchParams.get("state")!, agent };
  }
  async function callbackOfNewFlow(query: Record<string, string>, body: Record<string, unknown> = {}, id = "oidc") {
    const { state, agent } = await startState(body);
    return agent.get(`/callback/${id}`, { query: { state, ...query } });
  }
  const callback = (query: Record<string, string>, id = "oidc") => t.agent().get(`/callback/${id}`, { query });

  it("state_not_found without a state, please_restart_the_process for an unknown or expired one", async () => {
    expect((await callback({ code: "abc" })).headers.get("location")).toBe(errorPage("state_not_found"));
    expect((await callback({ code: "abc", state: "A".repeat(32) })).headers.get("location")).toBe(
      errorPage("please_restart_the_process"),
    );
    const { state, agent } = await startState();
    t.clock.advance(10 * 60 * 1000 + 1);
    expect((await agent.get("/callback/oidc", { query: { code: "abc", state } })).headers.get("location")).toBe(
      errorPage("please_restart_the_process"),
    );
  });

  it("no_code and invalid_code go to the errorCallbackURL; a state on another provider's callback is a bad state", async () => {
    const errorCallbackURL = "/sign-in?from=oauth";
    expect((await callbackOfNewFlow({}, { errorCallbackURL })).headers.get("location")).toBe(
      "/sign-in?from=oauth&error=no_code",
    );
    expect((await callbackOfNewFlow({ code: "forged-code" }, { errorCallbackURL })).headers.get("location")).toBe(
      "/sign-in?from=oauth&error=invalid_code",
    );
    expect((await callbackOfNewFlow({ code: "x" }, { errorCallbackURL }, "nope")).headers.get("location")).toBe(
      errorPage("please_restart_the_process"),
    );
  });

  it("passes the provider's own error on, escaped, and refuses a malformed callback", async () => {
    const denied = await callbackOfNewFlow({ error: "access_denied", error_description: "user said no & left" });
    expect(denied.headers.get("location")).toBe(
      `${errorPage("access_denied")}&error_description=user%20said%20no%20%26%20left`,
    );
    const malformed = await t.agent().post("/callback/oidc", { state: 12, code: ["a"] });
    expect(malformed.status).toBe(302);
    expect(malformed.headers.get("location")).toBe(errorPage("invalid_callback_request"));
  });

  it("no_callback_url when the stored state has none", async () => {
    const { insertVerification } = await import("../../src/db/repositories/verifications.ts");
    const now = t.ctx.now();
    op.accounts.set("nina", { email: "nina@example.com", email_verified: true });
    // A state written without a callbackURL (an older or foreign record): the flow must not sign anyone in.
    const agent = t.agent();
    const start = await agent.post("/sign-in/social", { provider: "oidc", callbackURL: "/dashboard" });
    const url = new URL(start.body.url);
    const state = url.searchParams.get("state")!;
    const row = await t.ctx.db
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "=", state)
      .executeTakeFirstOrThrow();
    const value = JSON.parse(row.value);
    delete value.callbackURL;
    await t.ctx.db.deleteFrom("verification").where("identifier", "=", state).execute();
    await insertVerification(t.ctx.db, state, JSON.stringify(value), now + 60_000, now);
    const back = await new Browser().authorize(url.toString(), "nina", CALLBACK_PREFIX);
    const res = await agent.get(back.pathname + back.search);
    expect(res.headers.get("location")).toBe(errorPage("no_callback_url"));
    expect(res.setCookies.some((c) => c.includes("session_token"))).toBe(false);
  });

  it("a form_post callback (POST with a form body) is relayed to the GET callback, which completes the sign-in", async () => {
    op.accounts.set("olga", { email: "olga@example.com", email_verified: true });
    const agent = t.agent();
    const start = await agent.post("/sign-in/social", { provider: "oidc", callbackURL: "/dashboard" });
    const back = await new Browser().authorize(start.body.url, "olga", CALLBACK_PREFIX);
    const form = new URLSearchParams({
      code: back.searchParams.get("code")!,
      state: back.searchParams.get("state")!,
    }).toString();
    // Cross-site form posts arrive without cookies (SameSite=Lax) and with the provider's origin.
    const res = await agent.request("POST", "/callback/oidc", undefined, {
      raw: form,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: op.issuer, cookie: "" },
    });
    expect(res.status).toBe(303);
    expect(res.setCookies).toEqual([]);
    const relayed = new URL(res.headers.get("location")!);
    expect(relayed.origin + relayed.pathname).toBe(`${TEST_ORIGIN}/api/auth/callback/oidc`);
    expect(Object.fromEntries(relayed.searchParams)).toEqual({
      code: back.searchParams.get("code"),
      state: back.searchParams.get("state"),
    });
    // The browser follows with a top-level GET, which carries its cookies.
    const done = await agent.get(relayed.pathname + relayed.search);
    expect(done.headers.get("location")).toBe("/dashboard");
    expect((await agent.get("/get-session")).body.user.email).toBe("olga@example.com");
  });
});
