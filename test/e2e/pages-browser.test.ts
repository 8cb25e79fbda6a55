import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, PAGE_VARIANTS, seriousAxeViolations, shoot } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";

// authd's pages in headless Chromium, served by the compiled binary (bundle and styles embedded), with
// JavaScript on (React hydrates and the forms go through the API) and off (plain form posts). Screenshots
// go to test-artifacts/pages/.

const RESET_LINK = /http:\/\/\S+\/api\/auth\/reset-password\/\S+/;
const SHOTS = join(ARTIFACTS_DIR, "pages");

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

const uniqueEmail = (label: string) =>
  `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

async function open(context: BrowserContext, path: string, javaScript: boolean): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${daemon.url}/account${path}`);
  if (javaScript) await page.locator("html[data-hydrated]").waitFor();
  return page;
}

async function signUpThroughPage(context: BrowserContext, javaScript: boolean, email: string, password: string) {
  const page = await open(context, "/sign-up", javaScript);
  await page.getByLabel("Name", { exact: true }).fill("Page Person");
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${daemon.url}/account`);
  return page;
}

for (const javaScript of [true, false]) {
  describe(`the pages with JavaScript ${javaScript ? "on" : "off"}`, () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ javaScriptEnabled: javaScript });
    });
    afterAll(() => context?.close());

    it("signs up, signs out, refuses a wrong password in place, and signs in again", async () => {
      const email = uniqueEmail(javaScript ? "js" : "nojs");
      const password = "correct-horse-battery";
      const page = await signUpThroughPage(context, javaScript, email, password);
      const problems = collectProblems(page);

      await page.goto(`${daemon.url}/account/sign-in`);
      await page.getByText(`Signed in as ${email}.`).waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/account\/signed-out$/);
      await page.getByText("You have been signed out.").waitFor();

      await page.goto(`${daemon.url}/account/sign-in`);
      if (javaScript) await page.locator("html[data-hydrated]").waitFor();
      const apiCalls: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/auth/sign-in/")) apiCalls.push(request.url());
      });
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect
        .poll(() => page.getByRole("alert").first().textContent())
        .toBe("The email address or password is not right.");
      // With JavaScript the API answered in place; without it the page route did.
      expect(apiCalls.length).toBe(javaScript ? 1 : 0);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${daemon.url}/account`);
      // The refused attempt's 401 is the one message the console may show; no policy violation, no failed load.
      expect(problems.filter((problem) => !problem.includes("status of 401"))).toEqual([]);
    });

    it("resets a forgotten password through the mailed link", async () => {
      const email = uniqueEmail(javaScript ? "reset-js" : "reset-nojs");
      const first = await signUpThroughPage(context, javaScript, email, "first-password-123");
      await context.clearCookies();
      await first.close();

      const page = await open(context, "/forgot-password", javaScript);
      await page.getByLabel("Email address", { exact: true }).fill(email);
      const since = Date.now();
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.waitForURL(/\/account\/check-mail\?kind=reset$/);
      const mail = await mailbox.waitFor(email, RESET_LINK, { since });
      await page.goto(mail.match[0]);
      await page.waitForURL(/\/account\/reset-password\?token=/);
      if (javaScript) await page.locator("html[data-hydrated]").waitFor();
      await page.getByLabel("New password", { exact: true }).fill("second-password-456");
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.waitForURL(/\/account\/sign-in\?notice=password-reset$/);
      await page.getByText("Your password has been changed.", { exact: false }).waitFor();
      await page.getByLabel("Email address or username", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill("second-password-456");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${daemon.url}/account`);
    });

    it("returns to a trusted address after signing in, and ignores an untrusted one", async () => {
      const email = uniqueEmail("redirect");
      await signUpThroughPage(context, javaScript, email, "correct-horse-battery");
      await context.clearCookies();
      for (const [target, expected] of [
        [`${daemon.url}/api/auth/ok`, `${daemon.url}/api/auth/ok`],
        ["https://evil.example.com/", `${daemon.url}/account`],
      ]) {
        const page = await open(context, `/sign-in?redirect=${encodeURIComponent(target)}`, javaScript);
        await page.getByLabel("Email address or username", { exact: true }).fill(email);
        await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(expected);
        await context.clearCookies();
        await page.close();
      }
    });
  });
}

describe("the pages for everyone", () => {
  const pages = [
    "/sign-in",
    "/sign-up",
    "/forgot-password",
    "/check-mail?kind=reset",
    "/signed-out",
    "/error?error=INVALID_TOKEN",
  ];

  it("has no serious or critical accessibility violation on any page, light and dark, phone and desktop", async () => {
    const found: string[] = [];
    for (const variant of PAGE_VARIANTS) {
      // axe is injected as a script of the test's own: the pages' policy rightly refuses it otherwise.
      // axe runs in one light and one dark, one phone and one desktop variant (its findings do not change
      // with the language); every variant is photographed.
      const context = await browser.newContext({
        bypassCSP: true,
        colorScheme: variant.colorScheme,
        viewport: variant.viewport,
        locale: variant.locale,
      });
      for (const path of pages) {
        const page = await context.newPage();
        await page.goto(`${daemon.url}/account${path}`);
        await page.locator("html[data-hydrated]").waitFor();
        const violations = variant.axe ? await seriousAxeViolations(page) : [];
        for (const id of violations) found.push(`${variant.name} ${path}: ${id}`);
        const file = `${path.slice(1).replace(/[?=&]/g, "-")}-${variant.name}.png`;
        await shoot(page, { path: join(SHOTS, file), fullPage: true });
        await page.close();
      }
      await context.close();
    }
    expect(found).toEqual([]);
  }, 180_000);

  it("signs in with the keyboard alone", async () => {
    const context = await browser.newContext();
    const email = uniqueEmail("keyboard");
    await signUpThroughPage(context, true, email, "correct-horse-battery");
    await context.clearCookies();
    const page = await open(context, "/sign-in", true);
    // The identifier field has the focus on arrival; Tab walks to the password, the checkbox and the button.
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await page.keyboard.type("correct-horse-battery");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign in");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${daemon.url}/account`);
    await context.close();
  });
});
