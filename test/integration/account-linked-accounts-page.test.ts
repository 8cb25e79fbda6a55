import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { alertText, browse, formTokenOf, postForm } from "../helpers/pages.ts";

// The account page's linked accounts ({pages}/linked-accounts) against a real OpenID Connect provider on
// loopback: link (303 to the provider, its login and consent clicked through, back to the section), unlink,
// never the last way in. The attacker's side: another user's account in unlink, a stale session, forms
// without the token or from another origin, a hostile ?error= on the way back.

const SECTION = "/account/linked-accounts";
const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
const FOREIGN = { origin: "https://evil.example.net" };

describe("the account page's linked accounts", () => {
  let op: TestOpenIdProvider;
  let t: TestContext;
  let logins = 0;

  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: [`${CALLBACK_PREFIX}oidc`] });
    const social = { oidc: { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer } };
    t = await createTestContext({ config: { social } });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  /** A login at the provider releasing `email` (confirmed). */
  function providerLogin(email: string): string {
    logins += 1;
    const login = `person-${logins}`;
    op.accounts.set(login, { email, email_verified: true, name: "Linked Person" });
    return login;
  }

  const providers = async (agent: Agent) =>
    ((await agent.get("/list-accounts")).body as { provider: string }[]).map((a) => a.provider).sort();

  /** Press Link on the section, log in at the provider, follow it back: the answer of the daemon's callback. */
  async function link(agent: Agent, login: string) {
    const started = await postForm(agent, `${SECTION}/link`, {
      csrf: await formTokenOf(agent, SECTION),
      provider: "oidc",
    });
    expect(started.status).toBe(303);
    const authorization = started.headers.get("location") as string;
    expect(authorization.startsWith(`${op.issuer}/`)).toBe(true);
    const back = await new Browser().authorize(authorization, login, CALLBACK_PREFIX);
    return agent.get(back.pathname + back.search);
  }

  const unlink = async (agent: Agent, accountId: string) =>
    postForm(agent, `${SECTION}/unlink`, { csrf: await formTokenOf(agent, SECTION), providerId: "oidc", accountId });

  it("lists the password and links a provider's account, through the provider and back to the section", async () => {
    const user = await signUp(t);
    const page = await browse(user.agent, SECTION);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Email address and password");
    expect(page.text).toContain("Link oidc");
    // The Link form's post is sent on to the provider: the page's CSP must let it go there.
    expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${op.issuer}`);

    const callback = await link(user.agent, providerLogin(user.email));
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${TEST_ORIGIN}${SECTION}?notice=notice.account.accountLinked`);
    expect(await providers(user.agent)).toEqual(["credential", "oidc"]);
    const after = await browse(user.agent, `${SECTION}?notice=notice.account.accountLinked`);
    expect(after.text).toContain("The account is linked: you can sign in with it now.");
    expect(after.text).not.toContain("Link oidc");
    expect(after.text).toContain('Unlink<span class="authd-visually-hidden"> (oidc)</span>');
  });

  it("unlinks a provider's account, but never the last way in, and says why", async () => {
    const user = await signUp(t);
    const login = providerLogin(user.email);
    await link(user.agent, login);
    const unlinked = await unlink(user.agent, login);
    expect(unlinked.status).toBe(303);
    expect(unlinked.headers.get("location")).toBe(`${SECTION}?notice=notice.account.accountUnlinked`);
    expect(await providers(user.agent)).toEqual(["credential"]);

    // Someone who signed up through the provider has no password: the provider is their only way in.
    const socialOnly = t.agent();
    const email = `social.${Date.now()}@example.com`;
    const socialLogin = providerLogin(email);
    const started = await socialOnly.post("/sign-in/social", { provider: "oidc", callbackURL: "/" });
    const back = await new Browser().authorize(started.body.url, socialLogin, CALLBACK_PREFIX);
    await socialOnly.get(back.pathname + back.search);
    expect(await providers(socialOnly)).toEqual(["oidc"]);
    const refused = await unlink(socialOnly, socialLogin);
    expect(refused.status).toBe(400);
    expect(alertText(refused)).toBe(
      "This is your only way to sign in, so it cannot be unlinked. Link another account or set a password first.",
    );
    expect(await providers(socialOnly)).toEqual(["oidc"]);
  });

  it("unlinks nobody else's account", async () => {
    const victim = await signUp(t);
    const victimLogin = providerLogin(victim.email);
    await link(victim.agent, victimLogin);
    const attacker = await signUp(t);
    await link(attacker.agent, providerLogin(attacker.email));
    const refused = await unlink(attacker.agent, victimLogin);
    expect(refused.status).toBe(400);
    expect(alertText(refused)).toBe("This account is not linked to yours.");
    expect(await providers(victim.agent)).toEqual(["credential", "oidc"]);
    expect(await providers(attacker.agent)).toEqual(["credential", "oidc"]);
  });

  it("sends a session older than session.freshAge through re-authentication before unlinking", async () => {
    const user = await signUp(t);
    const login = providerLogin(user.email);
    await link(user.agent, login);
    const csrf = await formTokenOf(user.agent, SECTION);
    t.clock.advance(86_401_000);
    const posted = await postForm(user.agent, `${SECTION}/unlink`, { csrf, providerId: "oidc", accountId: login });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`/account/reauthenticate?redirect=${encodeURIComponent(SECTION)}`);
    expect(await providers(user.agent)).toEqual(["credential", "oidc"]);
  });

  it("comes back with the failure when the provider's account cannot be linked, and shows only known words", async () => {
    const user = await signUp(t);
    const callback = await link(user.agent, providerLogin("someone.else@example.com"));
    const location = callback.headers.get("location") as string;
    expect(location).toBe(`${TEST_ORIGIN}${SECTION}?error=unable_to_link_account`);
    const page = await browse(user.agent, location.slice(TEST_ORIGIN.length));
    expect(alertText(page)).toBe("This account could not be linked.");
    expect(await providers(user.agent)).toEqual(["credential"]);
    const hostile = await browse(user.agent, `${SECTION}?error=${encodeURIComponent("<script>alert(1)</script>")}`);
    expect(hostile.status).toBe(200);
    expect(alertText(hostile)).toBe("");
    expect(hostile.text).not.toContain("<script>alert");
  });

  it("refuses Link and Unlink without the token, with a forged one, or from another origin", async () => {
    const user = await signUp(t);
    const login = providerLogin(user.email);
    await link(user.agent, login);
    const csrf = await formTokenOf(user.agent, SECTION);
    for (const [route, fields] of [
      ["link", { provider: "oidc" }],
      ["unlink", { providerId: "oidc", accountId: login }],
    ] as const) {
      const path = `${SECTION}/${route}`;
      const refusals = [
        await postForm(user.agent, path, fields),
        await postForm(user.agent, path, { ...fields, csrf: `${csrf.slice(0, -2)}xx` }),
        await postForm(user.agent, path, { ...fields, csrf }, FOREIGN),
      ];
      expect(refusals.map((r) => r.status)).toEqual([403, 403, 403]);
      for (const refusal of refusals) expect(refusal.headers.get("location")).toBeNull();
    }
    expect(await providers(user.agent)).toEqual(["credential", "oidc"]);
  });
});

describe("the account page's linked accounts without providers", () => {
  it("is not offered", async () => {
    const t = await createTestContext();
    try {
      const { agent } = await signUp(t);
      expect((await browse(agent, SECTION)).status).toBe(404);
      expect((await browse(agent, "/account")).text).not.toContain(`href="${SECTION}"`);
    } finally {
      await t.close();
    }
  });
});
