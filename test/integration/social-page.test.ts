import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { browse, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// Social sign-in from the sign-in page: each configured provider is a button whose post answers 303 to the
// provider (the same start as POST /sign-in/social); the page's CSP lets that form go on to the provider.
// A real OpenID Connect provider on loopback, configured by issuer only (its endpoints come from discovery).

const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
const FOREIGN = { origin: "https://evil.example.net" };

describe("social sign-in buttons on the sign-in page", () => {
  let op: TestOpenIdProvider;
  let t: TestContext;
  let off: TestContext;

  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: [`${CALLBACK_PREFIX}oidc`] });
    const social = { oidc: { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer } };
    t = await createTestContext({ config: { social } });
    off = await createTestContext({ config: { social, pages: { enabled: false } } });
  });
  afterAll(async () => {
    await t.close();
    await off.close();
    await op.close();
  });

  it("shows a button per provider and allows the provider's origin as a form target", async () => {
    const page = await browse(t.agent(), "/account/sign-in");
    expect(page.text).toContain('action="/account/social"');
    expect(page.text.match(/<form[^>]*social[\s\S]*?<\/form>/)?.[0]).toContain('value="oidc"');
    expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${op.issuer}`);
    // Other pages keep form-action 'self' alone.
    const other = await browse(t.agent(), "/account/forgot-password");
    expect(other.headers.get("content-security-policy")).toMatch(/form-action 'self'$/);
  });

  it("sends the browser to the provider and back, signed in, to the return address", async () => {
    const agent = t.agent();
    const fields = await pageForm(agent, "/account/sign-in?redirect=%2Fdashboard");
    const started = await postForm(agent, "/account/social", { ...fields, provider: "oidc" });
    expect(started.status).toBe(303);
    const authorization = started.headers.get("location") as string;
    expect(authorization.startsWith(`${op.issuer}/`)).toBe(true);
    op.accounts.set("page-user", { email: "page-user@example.com", email_verified: true, name: "Page User" });
    const back = await new Browser().authorize(authorization, "page-user", CALLBACK_PREFIX);
    const callback = await agent.get(back.pathname + back.search);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/dashboard");
    const session = await agent.get("/get-session");
    expect(session.body.user.email).toBe("page-user@example.com");
  });

  it("ends a failure at the pages' error page, which explains the code", async () => {
    const agent = t.agent();
    const fields = await pageForm(agent, "/account/sign-in");
    const started = await postForm(agent, "/account/social", { ...fields, provider: "oidc" });
    const state = new URL(started.headers.get("location") as string).searchParams.get("state") as string;
    const denied = await agent.get(`/callback/oidc?error=access_denied&state=${state}`);
    expect(denied.headers.get("location")).toBe(`${TEST_ORIGIN}/account/error?error=access_denied`);
    const page = await browse(agent, "/account/error?error=access_denied");
    expect(page.text).toContain("The sign-in was cancelled at the provider.");
    const restart = await browse(agent, "/account/error?error=please_restart_the_process");
    expect(restart.text).toContain("Please start again");
  });

  it("keeps the API's error page as the default target when the pages are off", async () => {
    const denied = await off.agent().get("/callback/oidc?error=access_denied");
    expect(denied.headers.get("location")).toBe(`${TEST_ORIGIN}/api/auth/error?error=access_denied`);
  });

  it("refuses forged and foreign posts and unknown providers, storing no state", async () => {
    const agent = t.agent();
    const fields = await pageForm(agent, "/account/sign-in");
    const forged = await postForm(agent, "/account/social", { provider: "oidc" });
    expect(forged.status).toBe(403);
    const foreign = await postForm(agent, "/account/social", { ...fields, provider: "oidc" }, FOREIGN);
    expect(foreign.status).toBe(403);
    const unknown = await postForm(agent, "/account/social", { ...fields, provider: "<b>nope</b>" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain("<b>nope</b>");
    expect([...agent.jar.keys()].some((name) => name.endsWith("oauth_state"))).toBe(false);
    expect(hiddenFields(unknown.text).csrf).toBeUndefined();
  });
});
