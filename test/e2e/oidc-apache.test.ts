import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentedApacheBlock, type RunningApache, startApacheRelyingParty } from "../helpers/apache.ts";
import { buildBinary } from "../helpers/binary.ts";
import { launchChromium } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent } from "../helpers/live-agent.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// A relying party that is a real program, not a library: Debian's Apache with mod_auth_openidc, configured
// as docs/oidc.md's Apache recipe says, in front of a page showing the user's claims, against the compiled
// binary; the client registered with `authd clients add`. Chromium opens the protected page and goes
// through authd's sign-in, second-factor and consent pages back to Apache; RP-initiated logout goes through
// mod_auth_openidc to authd's end-session endpoint; signing out at authd, or a ban from the command line,
// ends the Apache session through back-channel logout. authd is on localhost and Apache on 127.0.0.1, so each keeps its own cookies.

const PASSWORD = "correct-horse-battery";

let binary: string;
let env: Record<string, string>;
let daemon: Daemon;
let issuer: string;
let apache: RunningApache;
let browser: Browser;
let clientId: string;

function cli(args: string[]) {
  const result = spawnSync(binary, args, { env: { ...process.env, ...env }, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  binary = buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "authd-apache-e2e-"));
  const port = await freePort();
  issuer = `http://localhost:${port}`;
  env = {
    AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
    AUTH_BASE_URL: issuer,
    AUTH_OIDC_PROVIDER: "on",
    AUTH_RATE_LIMIT: "off",
    AUTH_SECRET: "s_omez5W34wWMeVQN9II_ZM0tEOm8egelWycChxw1QBOCZaBUzpKtDtzB2eflHG7",
  };
  daemon = await startDaemon([binary], env, port);
  const apachePort = await freePort();
  const origin = `http://127.0.0.1:${apachePort}`;
  const registered = cli([
    "clients",
    "add",
    "--name",
    "Intranet",
    "--redirect-uri",
    `${origin}/protected/redirect_uri`,
    "--post-logout-redirect-uri",
    `${origin}/signed-out.html`,
    "--backchannel-logout-uri",
    `${origin}/protected/redirect_uri?logout=backchannel`,
    "--id-token-alg",
    "RS256",
    "--json",
  ]);
  clientId = registered.client_id;
  const block = documentedApacheBlock({ issuer, origin, clientId, secret: registered.client_secret });
  apache = await startApacheRelyingParty(apachePort, block);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await apache?.stop();
  await daemon?.stop();
});

async function signedUpUser(label: string, options: { secondFactor?: boolean; admin?: boolean } = {}) {
  const agent = new LiveAgent(daemon.url, issuer);
  const email = `${label}.${Date.now().toString(36)}@example.com`;
  const signUp = await agent.post("/sign-up/email", { name: "Intranet User", email, password: PASSWORD });
  expect(signUp.status).toBe(200);
  const id = (signUp.json as { user: { id: string } }).user.id;
  if (options.admin) cli(["users", "set-role", email, "admin", "--json"]);
  if (!options.secondFactor) return { id, email, key: null };
  const enabled = await agent.post("/two-factor/enable", { password: PASSWORD });
  const key = keyOf((enabled.json as { totpURI: string }).totpURI);
  expect((await agent.post("/two-factor/verify-totp", { code: totp(key, Date.now()) })).status).toBe(200);
  return { id, email, key };
}

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

describe("Apache with mod_auth_openidc as a relying party of the compiled binary, in Chromium", () => {
  const protectedPage = () => `${apache.origin}/protected/page.shtml`;
  const logoutURL = () =>
    `${apache.origin}/protected/redirect_uri?logout=${encodeURIComponent(`${apache.origin}/signed-out.html`)}`;

  async function passwordStep(page: Page, email: string) {
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/sign-in?`));
    await hydrated(page);
    await page.getByLabel("Email address or username", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  async function consentStep(page: Page) {
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/consent?`));
    await page.getByText("Intranet asks to sign you in").waitFor();
    await hydrated(page);
    await page.getByRole("button", { name: "Allow" }).click();
  }

  /** The protected page as Apache drew it for the signed-in user: the claims mod_auth_openidc passed on. */
  async function expectProtectedPageFor(page: Page, user: { id: string; email: string }) {
    await page.waitForURL(protectedPage());
    await expect.poll(() => page.locator("#email").textContent()).toBe(user.email);
    expect(await page.locator("#sub").textContent()).toBe(user.id);
    expect(await page.locator("#name").textContent()).toBe("Intranet User");
  }

  /** What mod_auth_openidc holds for this browser (its info hook), or the HTTP status when it holds nothing. */
  async function apacheSession(context: BrowserContext) {
    const answer = await context.request.get(`${apache.origin}/protected/redirect_uri?info=json`, { maxRedirects: 0 });
    return answer.status() === 200 ? ((await answer.json()) as Record<string, unknown>) : answer.status();
  }

  it("signs in with a password and consent, and Apache shows the page with the user's claims", async () => {
    const user = await signedUpUser("apache-password");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(protectedPage());
    await passwordStep(page, user.email);
    await consentStep(page);
    await expectProtectedPageFor(page, user);

    // The ID token mod_auth_openidc verified (against authd's JWKS, pinned to RS256 by the recipe).
    const info = (await apacheSession(context)) as { id_token: Record<string, unknown> };
    expect(info.id_token).toMatchObject({ iss: issuer, aud: clientId, sub: user.id, email: user.email });
    // Not an admin: the location kept to role:admin refuses them.
    const admins = await page.goto(`${apache.origin}/protected/admins/page.shtml`);
    expect(admins?.status()).toBe(401);

    // RP-initiated logout: mod_auth_openidc ends its session and sends the browser to authd's end-session
    // endpoint with the ID token as hint; authd signs the browser out and returns it to the registered page.
    await page.goto(logoutURL());
    await page.waitForURL(`${apache.origin}/signed-out.html`);
    expect(await apacheSession(context)).not.toEqual(expect.objectContaining({ id_token: expect.anything() }));
    expect((await context.cookies(issuer)).map((cookie) => cookie.name)).not.toContain("better-auth.session_token");
    // Both sessions are gone: the protected page asks for a password again.
    await page.goto(protectedPage());
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/sign-in?`));
    await context.close();
  });

  it("signs an admin in with a password and a second factor inside the flow", async () => {
    const user = await signedUpUser("apache-totp", { secondFactor: true, admin: true });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${apache.origin}/protected/admins/page.shtml`);
    await passwordStep(page, user.email);
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/two-factor?`));
    await hydrated(page);
    await page
      .getByLabel("Code from your authenticator app", { exact: true })
      .fill(totp(user.key as Buffer, Date.now()));
    await page.getByRole("button", { name: "Verify" }).click();
    await consentStep(page);
    await page.waitForURL(`${apache.origin}/protected/admins/page.shtml`);
    expect(await page.locator("#email").textContent()).toBe(user.email);
    await page.goto(protectedPage());
    await expectProtectedPageFor(page, user);
    await context.close();
  });

  it("signing out at authd's own pages ends the Apache session too (back-channel logout)", async () => {
    const user = await signedUpUser("apache-backchannel");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(protectedPage());
    await passwordStep(page, user.email);
    await consentStep(page);
    await expectProtectedPageFor(page, user);
    expect(await apacheSession(context)).toHaveProperty("id_token");

    await page.goto(`${issuer}/account`);
    await hydrated(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/signed-out`));
    // The logout token travels in the background; Apache forgets the session once it arrives.
    await expect
      .poll(() => apacheSession(context), { timeout: 10_000 })
      .not.toEqual(expect.objectContaining({ id_token: expect.anything() }));
    await page.goto(protectedPage());
    await page.waitForURL((url) => url.href.startsWith(`${issuer}/account/sign-in?`));
    await context.close();
  });

  it("an operator's ban from the command line ends the Apache session before the command exits", async () => {
    const user = await signedUpUser("apache-banned");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(protectedPage());
    await passwordStep(page, user.email);
    await consentStep(page);
    await expectProtectedPageFor(page, user);

    cli(["users", "ban", user.email, "--json"]);
    expect(await apacheSession(context)).not.toEqual(expect.objectContaining({ id_token: expect.anything() }));
    await context.close();
  });
});
