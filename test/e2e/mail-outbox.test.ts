import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, seriousAxeViolations, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";

// Issue 31, in headless Chromium against the compiled binary: a developer without SMTP signs up on the
// pages, finds the verification mail in the development outbox, presses the mail's button there, and the
// landing's button confirms the address. The same binary listening on a non-loopback address has no outbox.

const SHOTS = join(ARTIFACTS_DIR, "pages");

let daemon: Daemon;
let browser: Browser;

beforeAll(async () => {
  // No AUTH_SMTP_URL, listening on 127.0.0.1 (startDaemon's address): the outbox is on by default.
  daemon = await startDaemon([buildBinary()], {
    AUTH_RATE_LIMIT: "off",
    AUTH_REQUIRE_EMAIL_VERIFICATION: "on",
    AUTH_EMAIL_OTP: "on",
    AUTH_LOG_LEVEL: "info",
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe("the development outbox", () => {
  it("shows the verification mail, whose button leads to the landing that confirms the address", async () => {
    const context = await browser.newContext({ bypassCSP: false });
    const page = await context.newPage();
    const problems = collectProblems(page);
    const expected: string[] = [];
    // Chromium asks for /favicon.ico (the daemon has none), and the test's own probes into the mail's frame
    // are refused there (sandboxed, no scripts): neither is a problem of the pages.
    page.on("console", (message) => {
      const { url } = message.location();
      if (url.endsWith("/favicon.ico") || message.text().includes("frame is sandboxed")) expected.push(message.text());
    });
    const email = `outbox.${Date.now().toString(36)}@example.com`;

    // A sign-up on the pages: the address must be confirmed first.
    await page.goto(`${daemon.url}/account/sign-up`);
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Outbox Person");
    await page.getByLabel("Email address", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("We have sent you a link. Open it to confirm your address.").waitFor();

    // The outbox lists it: subject, recipient, the link; the HTML part drawn in its frame.
    await page.goto(`${daemon.url}/account/dev/outbox`);
    const mail = page.getByRole("article", { name: "Confirm your email address for authd" });
    await mail.waitFor();
    await expect.poll(() => mail.textContent()).toContain(email);
    const link = await mail.locator("a.authd-outbox-link").getAttribute("href");
    expect(link).toMatch(new RegExp(`^${daemon.url}/api/auth/verify-email\\?token=`));
    const frame = page.frameLocator("iframe.authd-outbox-html").first();
    const button = frame.getByRole("link", { name: "Confirm my address" });
    await button.waitFor();
    // The mail's own inline styles apply in its frame (its policy allows them; the pages' would not).
    expect(await button.evaluate((element) => getComputedStyle(element).paddingTop)).toBe("12px");
    await shoot(page, { path: join(SHOTS, "dev-outbox-light-desktop-en.png"), fullPage: true });

    // The mail's button opens the link in the whole window, as a mail client would: the landing consumes
    // nothing until its own button is pressed.
    await button.click();
    await page.waitForURL(/\/account\/verify-email\?token=/);
    await page.getByRole("button", { name: "Confirm my address" }).click();
    // The link goes back to the app once confirmed: without AUTH_APP_URL, the account page (which sends
    // this browser, signed out, through sign-in and back).
    await page.waitForURL((url) => url.pathname === "/account" || url.pathname === "/account/sign-in");
    // Confirmed: the password that was refused for an unconfirmed address now signs in.
    await page.goto(`${daemon.url}/account/sign-in`);
    await page.getByLabel("Email address or username", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${daemon.url}/account`);
    await page.goto(`${daemon.url}/account/sign-in`);
    await page.getByText(`Signed in as ${email}.`).waitFor();
    expect(problems.filter((problem) => !expected.includes(problem))).toEqual([]);

    // The daemon's log has the same mail as a block, the link alone on its line.
    expect(daemon.output()).toContain(`mail (no SMTP configured) to=${email}`);
    expect(daemon.output()).toMatch(
      new RegExp(`\\n  link: ${daemon.url.replaceAll(".", "\\.")}/api/auth/verify-email\\?token=\\S+\\n`),
    );
    await context.close();
  }, 60_000);

  it("shows the code the verification mail carries, which the code page takes instead of the link", async () => {
    // Without JavaScript the sign-up posts to its page route, which hands the code page the address (a signed
    // cookie); with JavaScript the API signs up and the person types the address there.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = `code.${Date.now().toString(36)}@example.com`;
    await page.goto(`${daemon.url}/account/sign-up`);
    await page.getByLabel("Name", { exact: true }).fill("Code Person");
    await page.getByLabel("Email address", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("We have sent you a link. Open it to confirm your address.").waitFor();

    // Read on another device, say: the outbox shows the code beside the link.
    const outbox = await context.newPage();
    await outbox.goto(`${daemon.url}/account/dev/outbox`);
    const mail = outbox.getByRole("article").filter({ hasText: email });
    const code = (await mail.locator("code.authd-outbox-code").textContent()) ?? "";
    expect(code).toMatch(/^\d{6}$/);

    // The page after the sign-up leads to the code page, which knows the address.
    await page.getByRole("link", { name: "Have a code from the mail? Type it here" }).click();
    await page.waitForURL(/\/account\/verify-email\/code$/);
    expect(await page.getByLabel("Email address", { exact: true }).inputValue()).toBe(email);
    await page.getByLabel("Code from the mail", { exact: true }).fill(code);
    await shoot(page, { path: join(SHOTS, "verify-email-code-light-desktop-en.png") });
    await page.getByRole("button", { name: "Confirm my address" }).click();
    await page.getByText("Your address is confirmed.").waitFor();
    await context.close();
  }, 60_000);

  it("passes axe with no serious finding, on the outbox and the code page", async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${daemon.url}/account/dev/outbox`);
    await page.locator("article").first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${daemon.url}/account/verify-email/code`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("is not there when the same binary listens on a non-loopback address", async () => {
    const port = await freePort();
    const open = await startDaemon([buildBinary()], { AUTH_HOST: "0.0.0.0" }, port);
    try {
      for (const path of ["/account/dev/outbox", "/account/dev/outbox/anything"]) {
        const answer = await fetch(`${open.url}${path}`, { headers: { accept: "text/html" } });
        expect(answer.status).toBe(404);
      }
      expect((await fetch(`${open.url}/account/sign-in`)).status).toBe(200);
    } finally {
      await open.stop();
    }
  }, 60_000);
});
