import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as client from "openid-client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { launchChromium, seriousAxeViolations } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent } from "../helpers/live-agent.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// authd as an OpenID Provider, end to end: the compiled binary, a client registered with `authd clients add`,
// openid-client (a real relying-party library: discovery, PKCE, state, nonce, iss, ID token signature) as
// the application, and headless Chromium going through authd's sign-in, second-factor and consent pages.

const PASSWORD = "correct-horse-battery";

let binary: string;
let env: Record<string, string>;
let daemon: Daemon;
let browser: Browser;
let landing: Server;
let rpOrigin: string;

function cli(args: string[]) {
  const result = spawnSync(binary, args, { env: { ...process.env, ...env }, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  // The application's own pages: the callback and the page after logout just answer.
  landing = createServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("rp"));
  await new Promise<void>((resolve) => landing.listen(0, "127.0.0.1", resolve));
  rpOrigin = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
  binary = buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "authd-oidc-e2e-"));
  env = {
    AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
    AUTH_OIDC_PROVIDER: "on",
    AUTH_RATE_LIMIT: "off",
    AUTH_SECRET: "s_omez5W34wWMeVQN9II_ZM0tEOm8egelWycChxw1QBOCZaBUzpKtDtzB2eflHG7",
  };
  daemon = await startDaemon([binary], env);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await new Promise((resolve) => landing?.close(resolve));
});

async function signedUpUser(label: string, secondFactor: boolean) {
  const agent = new LiveAgent(daemon.url, daemon.url);
  const email = `${label}.${Date.now().toString(36)}@example.com`;
  expect((await agent.post("/sign-up/email", { name: "Relying Party User", email, password: PASSWORD })).status).toBe(
    200,
  );
  if (!secondFactor) return { email, key: null };
  const enabled = await agent.post("/two-factor/enable", { password: PASSWORD });
  const key = keyOf((enabled.json as { totpURI: string }).totpURI);
  expect((await agent.post("/two-factor/verify-totp", { code: totp(key, Date.now()) })).status).toBe(200);
  return { email, key };
}

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

describe("authd as an OpenID Provider for openid-client, through the pages in Chromium", () => {
  let config: client.Configuration;
  let clientId: string;
  let context: BrowserContext;
  let axeChecked = false;
  const callback = () => `${rpOrigin}/callback`;
  const loggedOut = () => `${rpOrigin}/logged-out`;

  beforeAll(async () => {
    const registered = cli([
      "clients",
      "add",
      "--name",
      "Wiki",
      "--redirect-uri",
      callback(),
      "--post-logout-redirect-uri",
      loggedOut(),
      "--json",
    ]);
    clientId = registered.client_id;
    config = await client.discovery(new URL(daemon.url), clientId, registered.client_secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    context = await browser.newContext();
  });
  afterAll(() => context?.close());

  /** The application starts a sign-in; the browser goes through authd's pages (`through`) to the callback. */
  async function signIn(through: (page: Page) => Promise<void>, tamper?: (callbackURL: URL) => URL) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: callback(),
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const page = await context.newPage();
    await page.goto(url.href);
    await through(page);
    await page.waitForURL((current) => current.href.startsWith(callback()));
    const checks = { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true };
    if (tamper) {
      // Mix-up (RFC 9207): an answer that names another issuer is refused before its code is used.
      await expect(client.authorizationCodeGrant(config, tamper(new URL(page.url())), checks)).rejects.toThrow();
    }
    const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), checks);
    return { page, tokens };
  }

  async function passwordStep(page: Page, email: string) {
    await page.waitForURL(/\/account\/sign-in\?/);
    await hydrated(page);
    await page.getByLabel("Email address or username", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  async function consentStep(page: Page) {
    await page.waitForURL(/\/account\/consent\?/);
    await page.getByText("Wiki asks to sign you in").waitFor();
    await hydrated(page);
    if (!axeChecked) {
      // axe needs an injected script, which the page's CSP refuses: the same page in a context without it.
      axeChecked = true;
      const checking = await browser.newContext({ bypassCSP: true });
      await checking.addCookies(await context.cookies());
      const copy = await checking.newPage();
      await copy.goto(page.url());
      await hydrated(copy);
      expect(await seriousAxeViolations(copy)).toEqual([]);
      await checking.close();
    }
    await page.getByRole("button", { name: "Allow" }).click();
  }

  it("signs in with a password, asks consent, and the application gets verified tokens, userinfo and refreshes", async () => {
    const user = await signedUpUser("rp-password", false);
    const { page, tokens } = await signIn(async (current) => {
      await passwordStep(current, user.email);
      await consentStep(current);
    });
    const claims = tokens.claims();
    expect(claims?.email).toBe(user.email);
    expect(claims?.iss).toBe(daemon.url);
    const info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? "");
    expect(info).toMatchObject({ email: user.email, name: "Relying Party User" });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await client.fetchUserInfo(config, refreshed.access_token, claims?.sub ?? "");
    // The spent refresh token again: the library sees invalid_grant, and the family is gone.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims?.sub ?? "")).rejects.toThrow();

    // A second sign-in of the same browser needs neither the password nor consent again.
    const again = await signIn(async () => {});
    expect(again.tokens.claims()?.sub).toBe(claims?.sub);

    // RP-initiated logout returns to the application and signs the browser out.
    await page.goto(
      client.buildEndSessionUrl(config, {
        id_token_hint: again.tokens.id_token ?? "",
        post_logout_redirect_uri: loggedOut(),
      }).href,
    );
    await page.waitForURL(loggedOut());
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("better-auth.session_token");
  });

  it("signs in with a password and a second factor inside the authorization flow", async () => {
    await context.clearCookies();
    const user = await signedUpUser("rp-totp", true);
    const { tokens } = await signIn(async (page) => {
      await passwordStep(page, user.email);
      await page.waitForURL(/\/account\/two-factor\?/);
      await hydrated(page);
      await page
        .getByLabel("Code from your authenticator app", { exact: true })
        .fill(totp(user.key as Buffer, Date.now()));
      await page.getByRole("button", { name: "Verify" }).click();
      await consentStep(page);
    });
    expect(tokens.claims()?.email).toBe(user.email);
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub ?? "");
    expect(info.email).toBe(user.email);
  });

  it("the application refuses an authorization answer whose iss names another provider (mix-up)", async () => {
    const { tokens } = await signIn(
      async () => {},
      (url) => {
        url.searchParams.set("iss", "https://evil.example");
        return url;
      },
    );
    expect(tokens.claims()?.iss).toBe(daemon.url);
  });
});

describe("without JavaScript, a first-party client", () => {
  it("signs in by plain form posts straight through to the application (the pages' CSP lets the flow end there)", async () => {
    const registered = cli([
      "clients",
      "add",
      "--name",
      "Intranet",
      "--redirect-uri",
      `${rpOrigin}/first-party`,
      "--skip-consent",
      "--json",
    ]);
    const config = await client.discovery(
      new URL(daemon.url),
      registered.client_id,
      registered.client_secret,
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${rpOrigin}/first-party`,
      scope: "openid email",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const user = await signedUpUser("rp-nojs", false);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByLabel("Email address or username", { exact: true }).fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((current) => current.href.startsWith(`${rpOrigin}/first-party`));
    const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()?.email).toBe(user.email);
    await context.close();
  });
});
