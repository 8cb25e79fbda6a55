import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";
import { LiveAgent } from "../helpers/live-agent.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { photographEveryVariant } from "../helpers/page-variants.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// The second-factor page in headless Chromium, served by the compiled binary: a user enrolled through the
// API signs in on the pages and finishes with the authenticator code, a mailed code or a backup code, with
// JavaScript on (the client calls the API in place) and off (plain form posts); once with the keyboard
// alone; and axe-core on the page, light and dark. Screenshots go to test-artifacts/pages/.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const CODE_LINE = /^(?:[^\d\r\n]*[:\s])?(\d{6})[ \t]*\r?$/m;
const PASSWORD = "correct-horse-battery";

let daemon: Daemon;
let mailbox: Mailbox;
let browser: Browser;

beforeAll(async () => {
  mailbox = await startMailbox();
  daemon = await startDaemon([buildBinary()], { AUTH_SMTP_URL: mailbox.url, AUTH_RATE_LIMIT: "off" });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await mailbox?.close();
});

interface Enrolled {
  email: string;
  key: Buffer;
  backupCodes: string[];
}

/** Sign a user up and turn two-factor on through the API, as an app's settings page would. */
async function enrolledUser(label: string): Promise<Enrolled> {
  const agent = new LiveAgent(daemon.url, daemon.url);
  const email = `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const signedUp = await agent.post("/sign-up/email", { name: "Second Factor", email, password: PASSWORD });
  expect(signedUp.status).toBe(200);
  const enabled = await agent.post("/two-factor/enable", { password: PASSWORD });
  const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
  const key = keyOf(totpURI);
  expect((await agent.post("/two-factor/verify-totp", { code: totp(key, Date.now()) })).status).toBe(200);
  return { email, key, backupCodes };
}

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

/** Sign in on the sign-in page up to the second factor (with `redirect` as the return address). */
async function signInToSecondFactor(context: BrowserContext, javaScript: boolean, user: Enrolled, redirect: string) {
  const page = await context.newPage();
  await page.goto(`${daemon.url}/account/sign-in?redirect=${encodeURIComponent(redirect)}`);
  if (javaScript) await hydrated(page);
  await page.getByLabel("Email address or username", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/account\/two-factor\?redirect=/);
  if (javaScript) await hydrated(page);
  return page;
}

/** The page's calls of the API's two-factor routes (only made with JavaScript). */
function apiCallsOf(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/two-factor/")) calls.push(new URL(request.url()).pathname);
  });
  return calls;
}

for (const javaScript of [true, false]) {
  describe(`the second-factor page with JavaScript ${javaScript ? "on" : "off"}`, () => {
    let context: BrowserContext;
    const target = () => `${daemon.url}/api/auth/ok`;
    beforeAll(async () => {
      context = await browser.newContext({ javaScriptEnabled: javaScript });
    });
    afterAll(() => context?.close());

    it("refuses a wrong authenticator code in place, then signs in with the right one and trusts the browser", async () => {
      const user = await enrolledUser(javaScript ? "totp-js" : "totp-nojs");
      const page = await signInToSecondFactor(context, javaScript, user, target());
      const problems = collectProblems(page);
      const calls = apiCallsOf(page);
      const code = page.getByLabel("Code from your authenticator app", { exact: true });
      await code.fill(totp(user.key, Date.now() - 3_600_000));
      await page.getByRole("button", { name: "Verify" }).click();
      await expect
        .poll(() => page.getByRole("alert").first().textContent())
        .toBe("This code is not right. Check it and try again.");
      expect(calls).toEqual(javaScript ? ["/api/auth/two-factor/verify-totp"] : []);
      await code.fill(totp(user.key, Date.now()));
      await page.getByLabel("Trust this browser (no code needed here for a while)").check();
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(target());
      const cookies = (await context.cookies()).map((cookie) => cookie.name);
      expect(cookies).toContain("better-auth.session_token");
      expect(cookies).toContain("better-auth.trust_device");
      expect(problems.filter((problem) => !problem.includes("status of 401"))).toEqual([]);
      await context.clearCookies();
    });

    it("signs in with a code sent by mail", async () => {
      const user = await enrolledUser(javaScript ? "mail-js" : "mail-nojs");
      const page = await signInToSecondFactor(context, javaScript, user, target());
      await page.getByRole("link", { name: "Get a code by email instead" }).click();
      if (javaScript) await hydrated(page);
      const since = Date.now();
      await page.getByRole("button", { name: "Email me a code" }).click();
      await page.getByText("We have sent a code to the email address of your account.").waitFor();
      const mail = await mailbox.waitFor(user.email, CODE_LINE, { since });
      await page.getByLabel("Code from the email", { exact: true }).fill(mail.match[1]);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(target());
      await context.clearCookies();
    });

    it("signs in with a backup code", async () => {
      const user = await enrolledUser(javaScript ? "backup-js" : "backup-nojs");
      const page = await signInToSecondFactor(context, javaScript, user, target());
      await page.getByRole("link", { name: "Use a backup code instead" }).click();
      if (javaScript) await hydrated(page);
      await page.getByLabel("Backup code", { exact: true }).fill(user.backupCodes[0]);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(target());
      await context.clearCookies();
    });
  });
}

describe("the second-factor page for everyone", () => {
  it("completes the second factor with the keyboard alone", async () => {
    const context = await browser.newContext();
    const user = await enrolledUser("keyboard");
    const page = await context.newPage();
    await page.goto(`${daemon.url}/account/sign-in`);
    await hydrated(page);
    await page.keyboard.type(user.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/account\/two-factor$/);
    await hydrated(page);
    // The code field has the focus on arrival; Tab walks to "trust this browser" and then to Verify.
    await page.keyboard.type(totp(user.key, Date.now()));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Verify");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${daemon.url}/account`);
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain("better-auth.trust_device");
    await context.close();
  });

  it("draws every way in all eight variants, with no serious or critical accessibility violation", async () => {
    const user = await enrolledUser("axe");
    const views = [
      { name: "totp", query: "" },
      { name: "mail", query: "?method=mail" },
      { name: "mail-sent", query: "?method=mail&sent=1" },
      { name: "backup", query: "?method=backup" },
    ].map((view) => ({ name: view.name, url: `${daemon.url}/account/two-factor${view.query}` }));
    const found = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "two-factor",
      views,
      // The page needs a live challenge: the password step through the API sets its cookie in this context.
      prepare: async (context) => {
        const signIn = await context.request.post(`${daemon.url}/api/auth/sign-in/email`, {
          data: { email: user.email, password: PASSWORD },
          headers: { origin: daemon.url },
        });
        expect(await signIn.json()).toEqual({ twoFactorRedirect: true });
      },
    });
    expect(found).toEqual([]);
  }, 180_000);
});
