import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { expectAuditMatchesLog } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { captureLog, securityLine as line, sourceFields } from "../helpers/security-log.ts";

// The security log (issue 14, item 15) for social sign-in against a real OpenID Connect provider: sign-up,
// sign-in and their refusals, and the takeover of a never-verified look-alike account, without any of the
// provider's tokens, the authorization code or the state.

const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
const FROM = "203.0.113.80";
const UA = "SocialBrowser/3.0";

describeEachDialect("security log: social sign-in", (dialect) => {
  const log = captureLog();
  let op: TestOpenIdProvider;
  let t: TestContext;

  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: ["oidc", "oidc-closed"].map((id) => CALLBACK_PREFIX + id) });
    const base = { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer };
    t = await createTestContext({
      dialect,
      logger: log.logger,
      config: { social: { oidc: base, "oidc-closed": { ...base, disableSignUp: true } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });
  beforeEach(() => log.clear());
  // Issue 21: each line logged is also an audit row with the same facts.
  afterEach(() => expectAuditMatchesLog(t.ctx, log.lines));

  function browser(): Agent {
    const agent = t.agent({ from: FROM });
    agent.headers["user-agent"] = UA;
    return agent;
  }

  /** Start at the daemon, log in at the provider as `login`; the callback path (with code and state) for `agent` to open. */
  async function authorize(agent: Agent, login: string, provider = "oidc") {
    const start = await agent.post("/sign-in/social", { provider, callbackURL: "/dashboard" });
    expect(start.status).toBe(200);
    const back = await new Browser().authorize(start.body.url, login, CALLBACK_PREFIX);
    return {
      path: back.pathname + back.search,
      code: back.searchParams.get("code") as string,
      state: back.searchParams.get("state") as string,
    };
  }

  const user = (email: string) =>
    t.ctx.db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
  const as = (userId: string) => sourceFields("user", userId, FROM, UA);

  it("logs a sign-up and sign-in through the provider, never its tokens, the code or the state", async () => {
    op.accounts.set("sec-alice", { email: "sec.alice@example.com", email_verified: true, name: "Alice" });
    const agent = browser();
    const { path, code, state } = await authorize(agent, "sec-alice");
    expect((await agent.get(path)).status).toBe(302);
    const { id } = await user("sec.alice@example.com");
    expect(log.events("sign_up")).toEqual([
      line("sign_up", { outcome: "success", userId: id, ...as(id), method: "social", provider: "oidc" }),
    ]);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", { outcome: "success", userId: id, ...as(id), method: "social", provider: "oidc" }),
    ]);
    const account = await t.ctx.db.selectFrom("account").selectAll().where("userId", "=", id).executeTakeFirstOrThrow();
    log.expectNoSecrets(
      code,
      state,
      account.accessToken,
      account.refreshToken ?? "no-refresh-token",
      account.idToken,
      ...agent.jar.values(),
    );
  });

  it("logs a refused ID token as a failed sign-in, without the token", async () => {
    const forged = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJlLW5vdC12YWxpZA";
    const res = await browser().post("/sign-in/social", { provider: "oidc", idToken: { token: forged } });
    expect(res.status).toBe(401);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId: null,
        ...sourceFields("anonymous", null, FROM, UA),
        method: "social",
        provider: "oidc",
        reason: "invalid_token",
      }),
    ]);
    log.expectNoSecrets(forged);
  });

  it("logs a callback opened in another browser as a failed sign-in (state_mismatch)", async () => {
    op.accounts.set("sec-bob", { email: "sec.bob@example.com", email_verified: true });
    const { path, code } = await authorize(browser(), "sec-bob");
    const other = t.agent({ from: "198.51.100.81" });
    expect((await other.get(path)).headers.get("location")).toContain("please_restart_the_process");
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId: null,
        ...sourceFields("anonymous", null, "198.51.100.81", null),
        method: "social",
        provider: "oidc",
        reason: "state_mismatch",
      }),
    ]);
    log.expectNoSecrets(code);
  });

  it("logs a refused sign-up (provider closed to new users) and a banned user's refusal once", async () => {
    op.accounts.set("sec-carol", { email: "sec.carol@example.com", email_verified: true });
    const closed = browser();
    expect(
      (await closed.get((await authorize(closed, "sec-carol", "oidc-closed")).path)).headers.get("location"),
    ).toContain("error=signup_disabled");
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId: null,
        ...sourceFields("anonymous", null, FROM, UA),
        method: "social",
        provider: "oidc-closed",
        reason: "signup_disabled",
      }),
    ]);

    op.accounts.set("sec-dave", { email: "sec.dave@example.com", email_verified: true });
    const dave = browser();
    await dave.get((await authorize(dave, "sec-dave")).path);
    const { id } = await user("sec.dave@example.com");
    expect((await t.server().post("/admin/ban-user", { userId: id })).status).toBe(200);
    log.clear();
    const again = browser();
    expect((await again.get((await authorize(again, "sec-dave")).path)).headers.get("location")).toContain(
      "error=banned",
    );

    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId: id,
        ...sourceFields("anonymous", null, FROM, UA),
        method: "social",
        provider: "oidc",
        reason: "banned",
      }),
    ]);
  });

  it("logs the owner's provider sign-in into a never-verified look-alike as a verified email, without the look-alike's password", async () => {
    const lookAlikePassword = "pre-registered-by-attacker";
    const signUp = await t
      .agent()
      .post("/sign-up/email", { name: "Eve", email: "sec.erin@example.com", password: lookAlikePassword });
    const userId = signUp.body.user.id;
    log.clear();
    op.accounts.set("sec-erin", { email: "sec.erin@example.com", email_verified: true });
    const owner = browser();
    expect((await owner.get((await authorize(owner, "sec-erin")).path)).status).toBe(302);
    expect(log.events("email_verified")).toEqual([
      line("email_verified", { outcome: "success", userId, ...as(userId), method: "provider", provider: "oidc" }),
    ]);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", { outcome: "success", userId, ...as(userId), method: "social", provider: "oidc" }),
    ]);
    expect(log.events("sign_up")).toEqual([]);
    log.expectNoSecrets(lookAlikePassword, signUp.body.token);
  });
});
