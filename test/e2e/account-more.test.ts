import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, PAGE_VARIANTS, seriousAxeViolations, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { Browser as ProviderBrowser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";

// The account page's linked accounts, API keys, organizations and security activity in headless Chromium,
// served by the compiled binary, JavaScript on: link and unlink an account at a real OpenID provider (its
// login and consent pages clicked through), create an API key that works over HTTP and revoke it, accept
// an invitation and switch organization, read the activity. Then axe on each section, light and dark, and
// screenshots of each in every variant (test-artifacts/pages/account-*.png).

const SHOTS = join(ARTIFACTS_DIR, "pages");
const VERIFY_LINK = /http:\/\/\S+\/api\/auth\/verify-email\?token=\S+/;
const PASSWORD = "correct-horse-battery";

let daemon: Daemon;
let mailbox: Mailbox;
let browser: Browser;
let op: TestOpenIdProvider;

beforeAll(async () => {
  mailbox = await startMailbox();
  const port = await freePort();
  op = await startOpenIdProvider({ redirectURIs: [`http://127.0.0.1:${port}/api/auth/callback/oidc`] });
  daemon = await startDaemon([buildBinary()], {
    AUTH_PORT: String(port),
    AUTH_SMTP_URL: mailbox.url,
    AUTH_RATE_LIMIT: "off",
    AUTH_SOCIAL_OIDC_CLIENT_ID: op.clientId,
    AUTH_SOCIAL_OIDC_CLIENT_SECRET: op.clientSecret,
    AUTH_SOCIAL_OIDC_ISSUER: op.issuer,
  });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await op?.close();
  await mailbox?.close();
});

/** A user signed up (and, when asked, their address confirmed) through the API; the agent holds the session. */
async function user(name: string, options: { confirmed?: boolean } = {}) {
  const agent = new LiveAgent(daemon.url, daemon.url);
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, "-"));
  const since = Date.now();
  const signedUp = await agent.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(signedUp.status, signedUp.text).toBe(200);
  if (options.confirmed) {
    const link = new URL((await mailbox.waitFor(email, VERIFY_LINK, { since })).match[0]);
    await agent.get(link.pathname.replace("/api/auth", ""), Object.fromEntries(link.searchParams));
  }
  return { agent, email, id: (signedUp.json as { user: { id: string } }).user.id };
}

/** An organization of `owner`'s, answering its id. */
async function organization(owner: LiveAgent, name: string): Promise<string> {
  const slug = `${name.toLowerCase().replace(/\W+/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await owner.post("/organization/create", { name, slug });
  expect(created.status, created.text).toBe(200);
  return (created.json as { id: string }).id;
}

/**
 * Console errors and failed requests while the page is the daemon's (the provider's own pages load fonts
 * from elsewhere), but Chromium's ask for a /favicon.ico that no page names.
 */
function daemonProblems(page: Page): string[] {
  const problems: string[] = [];
  const ours = (url: string) => url.startsWith(daemon.url) && !url.endsWith("/favicon.ico");
  page.on("console", (message) => {
    if (message.type() === "error" && ours(page.url()) && ours(message.location().url)) problems.push(message.text());
  });
  page.on("requestfailed", (request) => {
    if (ours(request.url())) problems.push(`${request.url()} ${request.failure()?.errorText}`);
  });
  return problems;
}

/** A page of the account in a browser holding `agent`'s session, once hydrated. */
async function accountPage(agent: LiveAgent, path: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  await context.addCookies([...agent.jar].map(([name, value]) => ({ name, value, url: daemon.url })));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = daemonProblems(page);
  await page.goto(`${daemon.url}/account${path}`);
  await page.locator("html[data-hydrated]").waitFor();
  return { context, page, problems };
}

/** The API calls a page makes from now on (paths under /api/auth). */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/auth/") && request.method() === "POST") calls.push(url.pathname.slice(9));
  });
  return calls;
}

const keyAnswer = (key: string) =>
  fetch(`${daemon.url}/api/auth/get-session`, { headers: { "x-api-key": key } }).then((res) => res.status);

describe("the account page's further sections, JavaScript on", () => {
  it("links an account at the OpenID provider and unlinks it", async () => {
    const person = await user("Linda Link");
    op.accounts.set("linda", { email: person.email, email_verified: true, name: "Linda Link" });
    const { context, page, problems } = await accountPage(person.agent, "/linked-accounts");
    const calls = apiCalls(page);
    await page.getByText("Email address and password").waitFor();
    await page.getByRole("button", { name: "Link oidc" }).click();
    await page.waitForURL(`${op.issuer}/**`);
    await page.locator('input[name="login"]').fill("linda");
    await page.locator('input[name="password"]').fill("any-password");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(`${daemon.url}/account/linked-accounts?notice=notice.account.accountLinked`);
    await page.getByText("The account is linked: you can sign in with it now.").waitFor();
    await page.locator("html[data-hydrated]").waitFor();
    const linked = await person.agent.get("/list-accounts");
    expect((linked.json as { provider: string }[]).map((a) => a.provider).sort()).toEqual(["credential", "oidc"]);

    await page.getByRole("button", { name: "Unlink (oidc)" }).click();
    await page.getByText("The account is unlinked.").waitFor();
    const after = await person.agent.get("/list-accounts");
    expect((after.json as { provider: string }[]).map((a) => a.provider)).toEqual(["credential"]);
    expect(calls).toEqual(["/link-social", "/unlink-account"]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("creates an API key shown once, which works over HTTP, and revokes it, after which it fails", async () => {
    const person = await user("Kim Keys");
    const { context, page, problems } = await accountPage(person.agent, "/api-keys");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: daemon.url });
    const calls = apiCalls(page);
    await page.getByText("You have no API keys.").waitFor();
    await page.getByLabel("Name of the key").fill("CI deploy");
    await page.getByLabel("Expires", { exact: true }).selectOption({ label: "After 30 days" });
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByLabel("New API key: CI deploy", { exact: true });
    const key = await shown.inputValue();
    expect(key).toMatch(/^[A-Za-z]{64}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shoot(page, { path: join(SHOTS, "account-api-keys-created.png"), fullPage: true });
    expect(await keyAnswer(key)).toBe(200);

    // Shown once: loaded again, the section names the key by its start only.
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByText(`Starts with ${key.slice(0, 6)}…`).waitFor();
    expect(await page.content()).not.toContain(key);

    await page.getByRole("button", { name: "Revoke (CI deploy)" }).click();
    await page.getByText("The key is revoked: it works no more.").waitFor();
    expect(await keyAnswer(key)).toBe(401);
    expect(calls).toEqual(["/api-key/create", "/api-key/delete"]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("accepts an invitation and switches the active organization", async () => {
    const person = await user("Olga Orgs", { confirmed: true });
    const own = await organization(person.agent, "Olga's Workshop");
    const inviter = await user("Ivan Inviter");
    const invited = await organization(inviter.agent, "Initech");
    const invitation = await inviter.agent.post("/organization/invite-member", { email: person.email, role: "admin" });
    expect(invitation.status, invitation.text).toBe(200);

    const { context, page, problems } = await accountPage(person.agent, "/organizations");
    const calls = apiCalls(page);
    await page.getByText(`${inviter.email} invited you to join Initech as admin.`).waitFor();
    await page.getByRole("button", { name: "Accept invitation (Initech)" }).click();
    await page.getByText("You have joined the organization.").waitFor();
    await page.getByText("No invitation is waiting for you.").waitFor();
    const activeOf = async () =>
      (
        (await person.agent.get("/get-session", { disableCookieCache: "true" })).json as {
          session: { activeOrganizationId: string | null };
        }
      ).session.activeOrganizationId;
    expect(await activeOf()).toBe(invited);

    await page.getByRole("button", { name: "Make active (Olga's Workshop)" }).click();
    await page.getByText("The organization is now active in this session.").waitFor();
    expect(await activeOf()).toBe(own);
    const items = page.locator(".authd-item", { hasText: "Olga's Workshop" });
    await items.getByText("Role: owner · Active in this session").waitFor();
    expect(calls).toEqual(["/organization/accept-invitation", "/organization/set-active"]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("reads the security activity in words", async () => {
    const person = await user("Ada Activity");
    const guesser = new LiveAgent(daemon.url, daemon.url);
    const wrong = await guesser.post("/sign-in/email", { email: person.email, password: "not-my-password" });
    expect(wrong.status).toBe(401);
    const key = await person.agent.post("/api-key/create", { name: "script" });
    expect(key.status).toBe(200);
    const { context, page, problems } = await accountPage(person.agent, "/activity");
    const sentences = await page.locator(".authd-item-name").allTextContents();
    expect(sentences.slice(0, 2)).toEqual([
      "An API key was created.",
      "Someone tried to sign in to your account and failed.",
    ]);
    expect(sentences).toContain("You created your account.");
    await page.getByText("From 127.0.0.1", { exact: false }).first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

describe("the account page's further sections for everyone", () => {
  /** A user with something in every section: a linked account, keys, organizations, an invitation, events. */
  async function showcase() {
    const person = await user("Sam Showcase", { confirmed: true });
    op.accounts.set("sam", { email: person.email, email_verified: true, name: "Sam Showcase" });
    const started = await person.agent.post("/link-social", {
      provider: "oidc",
      callbackURL: "/account/linked-accounts",
    });
    const authorization = (started.json as { url: string }).url;
    const back = await new ProviderBrowser().authorize(authorization, "sam", `${daemon.url}/api/auth/callback/`);
    await person.agent.get(back.pathname.replace("/api/auth", ""), Object.fromEntries(back.searchParams));
    for (const name of ["CI deploy", "Nightly backup"]) await person.agent.post("/api-key/create", { name });
    await organization(person.agent, "Globex");
    const inviter = await user("Ivy Inviter");
    await organization(inviter.agent, "Initech");
    await inviter.agent.post("/organization/invite-member", { email: person.email, role: "member" });
    return person;
  }

  it("has no serious or critical accessibility violation in any section, light and dark", async () => {
    const person = await showcase();
    const found: string[] = [];
    for (const section of ["linked-accounts", "api-keys", "organizations", "activity"]) {
      for (const variant of PAGE_VARIANTS) {
        // axe is injected as a script of the test's own: the pages' policy rightly refuses it otherwise.
        const { name, axe, ...options } = variant;
        const { context, page } = await accountPage(person.agent, `/${section}`, { bypassCSP: true, ...options });
        if (axe) for (const id of await seriousAxeViolations(page)) found.push(`${section} ${name}: ${id}`);
        await shoot(page, { path: join(SHOTS, `account-${section}-${name}.png`), fullPage: true });
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 180_000);
});
