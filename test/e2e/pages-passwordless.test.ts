import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { CODE_LINE } from "../helpers/mail-links.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { photographEveryVariant } from "../helpers/page-variants.ts";

// Magic link, email code and social sign-in through authd's pages in headless Chromium, against the
// compiled binary, with JavaScript on and off: mails from a real SMTP capture, social sign-in against a
// real OpenID Connect provider whose development login and consent pages are clicked through.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const MAGIC_LINK = /http:\/\/\S+\/api\/auth\/magic-link\/verify\?token=\S+/;

let daemon: Daemon;
let mailbox: Mailbox;
let browser: Browser;
let op: TestOpenIdProvider;

beforeAll(async () => {
  mailbox = await startMailbox();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  op = await startOpenIdProvider({ redirectURIs: [`${base}/api/auth/callback/oidc`] });
  op.accounts.set("olivia", { email: "olivia@example.com", email_verified: true, name: "Olivia" });
  daemon = await startDaemon([buildBinary()], {
    AUTH_PORT: String(port),
    AUTH_SMTP_URL: mailbox.url,
    AUTH_RATE_LIMIT: "off",
    AUTH_MAGIC_LINK: "on",
    AUTH_EMAIL_OTP: "on",
    AUTH_SOCIAL_OIDC_CLIENT_ID: op.clientId,
    AUTH_SOCIAL_OIDC_CLIENT_SECRET: op.clientSecret,
    AUTH_SOCIAL_OIDC_ISSUER: op.issuer,
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await op?.close();
  await mailbox?.close();
});

const uniqueEmail = (label: string) =>
  `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** The newest mail to `to` matching `pattern`, waiting up to 10 s. */
async function mailed(to: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const match = mailbox
      .to(to)
      .map((m) => m.text.match(pattern))
      .filter(Boolean)
      .pop();
    if (match) return match[1] ?? match[0];
    if (Date.now() > deadline) throw new Error(`nothing like ${pattern} mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signInPage(context: BrowserContext, javaScript: boolean): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${daemon.url}/account/sign-in`);
  if (javaScript) await page.locator("html[data-hydrated]").waitFor();
  return page;
}

for (const javaScript of [true, false]) {
  const mode = javaScript ? "js" : "nojs";
  describe(`passwordless and social sign-in with JavaScript ${javaScript ? "on" : "off"}`, () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ javaScriptEnabled: javaScript });
    });
    afterAll(() => context?.close());

    it("signs in with a mailed link: the link's page waits for Continue", async () => {
      await context.clearCookies();
      const email = uniqueEmail(`link-${mode}`);
      const page = await signInPage(context, javaScript);
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.waitForURL(/\/account\/check-mail\?kind=magic-link$/);
      await shoot(page, { path: join(SHOTS, `magic-link-check-mail-${mode}.png`) });
      const link = await mailed(email, MAGIC_LINK);
      await page.goto(link);
      await page.waitForURL(/\/account\/magic-link\/verify\?token=/);
      await shoot(page, { path: join(SHOTS, `magic-link-continue-${mode}.png`) });
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(`${daemon.url}/account/sign-in`);
      await page.getByText(`Signed in as ${email}.`).waitFor();
      await page.close();
    });

    it("signs in with the code the link's mail carries, typed where the link was asked for", async () => {
      // The mail read on another device: its link would sign in that one; its code signs in this browser.
      await context.clearCookies();
      const email = uniqueEmail(`link-code-${mode}`);
      const page = await signInPage(context, javaScript);
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.waitForURL(/\/account\/check-mail\?kind=magic-link$/);
      await mailed(email, MAGIC_LINK);
      const code = await mailed(email, CODE_LINE);
      await page.getByRole("link", { name: "Have a code from the mail? Type it here" }).click();
      await page.waitForURL(/\/account\/email-code(\?|$)/);
      if (javaScript) await page.locator("html[data-hydrated]").waitFor();
      await page.getByLabel("Code from the mail", { exact: true }).fill(code);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${daemon.url}/account/sign-in`);
      await page.getByText(`Signed in as ${email}.`).waitFor();
      await page.close();
    });

    it("signs in with a mailed code typed into the code page", async () => {
      await context.clearCookies();
      const email = uniqueEmail(`code-${mode}`);
      const page = await signInPage(context, javaScript);
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Email me a code" }).click();
      await page.waitForURL(/\/account\/email-code(\?|$)/);
      // The address rides in a signed cookie, never in the URL (access logs, history).
      expect(page.url()).not.toContain(encodeURIComponent(email));
      if (javaScript) await page.locator("html[data-hydrated]").waitFor();
      const code = await mailed(email, CODE_LINE);
      const field = page.getByLabel("Code from the mail", { exact: true });
      expect(await field.getAttribute("autocomplete")).toBe("one-time-code");
      expect(await field.getAttribute("inputmode")).toBe("numeric");
      await field.fill(code);
      await shoot(page, { path: join(SHOTS, `email-code-${mode}.png`) });
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${daemon.url}/account/sign-in`);
      await page.getByText(`Signed in as ${email}.`).waitFor();
      await page.close();
    });

    it("signs in through the OpenID provider from the provider's button", async () => {
      await context.clearCookies();
      const page = await signInPage(context, javaScript);
      await page.getByRole("button", { name: "Continue with oidc" }).click();
      await page.waitForURL(`${op.issuer}/**`);
      await page.locator('input[name="login"]').fill("olivia");
      await page.locator('input[name="password"]').fill("any-password");
      await page.locator('button[type="submit"]').click();
      await page.locator('button[type="submit"]').click();
      await page.waitForURL(`${daemon.url}/account/sign-in`);
      await page.getByText("Signed in as olivia@example.com.").waitFor();
      await page.close();
    });
  });
}

describe("the passwordless pages for everyone", () => {
  it("draws the new pages in all eight variants, with no serious or critical accessibility violation", async () => {
    const page = (path: string) => `${daemon.url}/account${path}`;
    const found = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "passwordless",
      views: [
        { name: "sign-in", url: page("/sign-in") },
        { name: "check-mail", url: page("/check-mail?kind=magic-link") },
        { name: "magic-link-verify", url: page("/magic-link/verify?token=abc") },
        {
          // The code page follows "Email me a code" (the address travels in a cookie the send sets).
          name: "email-code",
          open: async (tab) => {
            await tab.goto(page("/sign-in"));
            await tab.locator("html[data-hydrated]").waitFor();
            await tab.locator('input[name="identifier"]').fill("someone@example.com");
            await tab.locator('button[formaction$="/email-code/send"]').click();
            await tab.waitForURL(/\/account\/email-code(\?|$)/);
          },
        },
        // Where the verification mail's code is typed (email codes on).
        { name: "verify-email-code", url: page("/verify-email/code") },
        { name: "error", url: page("/error?error=access_denied") },
      ],
    });
    expect(found).toEqual([]);
  }, 180_000);
});
