import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";
import { LiveAgent } from "../helpers/live-agent.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { photographEveryVariant, withCookies } from "../helpers/page-variants.ts";

// authd's pages in headless Chromium, served by the compiled binary (bundle and styles embedded), with
// JavaScript on (React hydrates and the forms go through the API) and off (plain form posts). Screenshots
// go to test-artifacts/pages/.

const RESET_LINK = /http:\/\/\S+\/api\/auth\/reset-password\/\S+/;
const VERIFY_LINK = /http:\/\/\S+\/api\/auth\/verify-email\?token=\S+/;
const PASSWORD = "correct-horse-battery";
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

    it("signs in with a username, through /sign-in/username with JavaScript", async () => {
      const username = `page_${javaScript ? "js" : "nojs"}_${Date.now().toString(36)}`;
      const agent = new LiveAgent(daemon.url, daemon.url);
      const signedUp = await agent.post("/sign-up/email", {
        name: "Named Person",
        email: uniqueEmail(username),
        username,
        password: PASSWORD,
      });
      expect(signedUp.status).toBe(200);
      await context.clearCookies();
      const page = await open(context, "/sign-in", javaScript);
      const apiCalls: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/auth/sign-in/")) apiCalls.push(new URL(request.url()).pathname);
      });
      await page.getByLabel("Email address or username", { exact: true }).fill(username);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${daemon.url}/account`);
      expect(apiCalls).toEqual(javaScript ? ["/api/auth/sign-in/username"] : []);
      await context.clearCookies();
      await page.close();
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
  it("draws every page in all eight variants, with no serious or critical accessibility violation", async () => {
    // Someone to sign in as, with the links whose landings are pages: the verification mail's (a signed
    // token, still drawn once the address is confirmed) and, the address confirmed, an email change's.
    const email = uniqueEmail("shots");
    const agent = new LiveAgent(daemon.url, daemon.url);
    let since = Date.now();
    expect((await agent.post("/sign-up/email", { name: "Page Person", email, password: PASSWORD })).status).toBe(200);
    const verifyLink = (await mailbox.waitFor(email, VERIFY_LINK, { since })).match[0];
    expect(
      (await agent.get("/verify-email", { token: new URL(verifyLink).searchParams.get("token") ?? "" })).status,
    ).toBe(200);
    since = Date.now();
    expect((await agent.post("/change-email", { newEmail: uniqueEmail("changed") })).status).toBe(200);
    const changeLink = (await mailbox.waitFor(email, VERIFY_LINK, { since })).match[0];
    const page = (path: string) => `${daemon.url}/account${path}`;
    const landing = (link: string) => async (tab: Page) => {
      await tab.goto(link);
      await tab.waitForURL(/\/account\/verify-email\?token=/);
    };
    const signedOut = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "",
      views: [
        { name: "sign-in", url: page("/sign-in") },
        { name: "sign-up", url: page("/sign-up") },
        { name: "forgot-password", url: page("/forgot-password") },
        { name: "check-mail-kind-reset", url: page("/check-mail?kind=reset") },
        { name: "check-mail-kind-verify", url: page("/check-mail?kind=verify") },
        { name: "reset-password", url: page("/reset-password?token=a-token-from-the-mail") },
        { name: "verify-email", open: landing(verifyLink) },
        { name: "verify-email-change", open: landing(changeLink) },
        { name: "verify-email-done", url: page("/verify-email?done=1") },
        { name: "delete-account-signed-out", url: page("/delete-account?token=a-token-from-the-mail") },
        { name: "delete-account-done", url: page("/delete-account?done=1") },
        { name: "signed-out", url: page("/signed-out") },
        { name: "error-error-INVALID_TOKEN", url: page("/error?error=INVALID_TOKEN") },
      ],
    });
    const signedIn = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "",
      views: [
        { name: "signed-in", url: page("/sign-in") },
        { name: "delete-account", url: page("/delete-account?token=a-token-from-the-mail") },
      ],
      prepare: withCookies(agent.jar, daemon.url),
    });
    expect([...signedOut, ...signedIn]).toEqual([]);
  }, 300_000);

  it("with JavaScript, says what is wrong with a field as it is left, before anything is sent", async () => {
    const context = await browser.newContext();
    const page = await open(context, "/sign-up", true);
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/")) sent.push(request.url());
    });
    const email = page.getByLabel("Email address", { exact: true });
    const password = page.getByLabel("Password", { exact: true });
    // Untouched fields say nothing when left; what was typed is judged as the field is left.
    await page.getByLabel("Name", { exact: true }).focus();
    await email.focus();
    await email.fill("not-an-address");
    await password.fill("short");
    await page.getByRole("alert").filter({ hasText: "Enter a valid email address." }).waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("This field is required.").count()).toBe(0);
    await email.focus();
    await page.getByRole("alert").filter({ hasText: "The password is too short." }).waitFor();
    expect(await password.getAttribute("aria-describedby")).toMatch(/-hint .*-error$/);
    // Fixed, the message goes as it is typed.
    await email.fill("someone@example.com");
    await expect.poll(() => email.getAttribute("aria-invalid")).toBeNull();
    expect(sent).toEqual([]);
    await context.close();
  });

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
