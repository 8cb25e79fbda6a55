import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// A sign-in through a provider goes through the same two-factor step as a password sign-in: the callback
// redirects with the challenge cookie and no session, and a code completes it.

const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/oidc`;

describeEachDialect("two-factor after a provider sign-in", (dialect) => {
  let op: TestOpenIdProvider;
  let t: TestContext;
  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: [CALLBACK] });
    t = await createTestContext({
      dialect,
      config: { social: { oidc: { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  async function throughProvider(agent: Agent, login: string) {
    const start = await agent.post("/sign-in/social", { provider: "oidc", callbackURL: "/dashboard" });
    const back = await new Browser().authorize(start.body.url, login, `${TEST_ORIGIN}/api/auth/callback/`);
    return agent.get(back.pathname + back.search);
  }

  it("challenges an enrolled user coming back from the provider; a TOTP code completes the sign-in", async () => {
    op.accounts.set("zoe", { email: `zoe.${dialect}@example.com`, email_verified: true, name: "Zoe" });
    const first = t.agent();
    expect((await throughProvider(first, "zoe")).status).toBe(302);
    const session = await first.get("/get-session");
    const userId = session.body.user.id;
    await t.server().post("/set-password", { userId, newPassword: "zoe-password-123" });
    const { key } = await enrol(first, "zoe-password-123", t.clock.now);
    t.clock.advance(30_000);

    const browser = t.agent();
    const back = await throughProvider(browser, "zoe");
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/dashboard");
    expect(browser.cookie("two_factor")).toBeDefined();
    expect(browser.cookie("session_token")).toBeUndefined();
    expect((await browser.get("/get-session")).body).toBeNull();

    const verified = await browser.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) });
    expect(verified.status).toBe(200);
    expect((await browser.get("/get-session")).body.user.id).toBe(userId);
  });
});
