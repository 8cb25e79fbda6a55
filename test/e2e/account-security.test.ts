import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import {
  ARTIFACTS_DIR,
  addVirtualAuthenticator,
  consoleProblems,
  launchChromium,
  PAGE_VARIANTS,
  seriousAxeViolations,
  shoot,
} from "../helpers/browser.ts";
import { type Daemon, startOnLocalhost } from "../helpers/daemon.ts";
import { uniqueEmail } from "../helpers/live-agent.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// The account page's second factor and passkeys in headless Chromium, against the compiled binary, with
// JavaScript on: a user enrols an authenticator app by reading the key from the page and computing its
// code, saves the backup codes (download and copy) and signs in with one; adds a passkey with a virtual
// authenticator, signs in with it, renames and removes it; enrols once more with the keyboard alone; and
// axe-core finds nothing serious on either section, light and dark. The base URL is on localhost, the one
// host name Chromium accepts as an rp id over plain http. Screenshots go to test-artifacts/pages/.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const PASSWORD = "correct-horse-battery";

let daemon: Daemon;
let base: string;
let browser: Browser;

beforeAll(async () => {
  ({ daemon, base } = await startOnLocalhost([buildBinary()], { AUTH_RATE_LIMIT: "off" }));
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

/** Sign up through the API from the pages' origin: the context keeps the session cookie. */
async function signUp(context: BrowserContext, label: string): Promise<string> {
  const email = uniqueEmail(label);
  const answer = await context.request.post(`${base}/api/auth/sign-up/email`, {
    data: { name: "Account Person", email, password: PASSWORD },
    headers: { origin: base },
  });
  expect(answer.status()).toBe(200);
  return email;
}

async function sessionEmail(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const session = await (await fetch("/api/auth/get-session")).json();
    return session?.user?.email ?? null;
  });
}

/** The key the enrolment shows for typing into an app (spaces between its groups removed). */
async function keyOnPage(page: Page): Promise<Buffer> {
  const shown = (await page.locator("#authd-totp-secret").textContent()) ?? "";
  return keyOf(`otpauth://totp/x?secret=${shown.replace(/\s/g, "")}`);
}

/** The page's calls of the API (only made with JavaScript). */
function apiCallsOf(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/")) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return calls;
}

describe("the account page's second factor", () => {
  it("enrols an app from the page, signs in with a saved backup code, makes new ones and turns it off", async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const email = await signUp(context, "enrol");
    const page = await context.newPage();
    const problems = consoleProblems(page);
    await page.goto(`${base}/account/second-factor`);
    await hydrated(page);

    // When they confirm with their password, the page shows the QR code, the key and the backup codes
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    await page.getByRole("img", { name: "QR code to scan with your authenticator app" }).waitFor();
    await hydrated(page);
    const key = await keyOnPage(page);
    const codes = await page.locator(".authd-codes li").allTextContents();
    expect(codes).toHaveLength(10);

    // Saved: downloaded as a file and copied to the clipboard
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("backup-codes.txt");
    expect(readFileSync(await download.path(), "utf8")).toBe(`${codes.join("\n")}\n`);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${codes.join("\n")}\n`);

    // A wrong first code is refused in place; the app's code turns it on through the API
    const calls = apiCallsOf(page);
    const code = page.getByLabel("Code from your authenticator app", { exact: true });
    await code.fill(totp(key, Date.now() - 3_600_000));
    await page.getByRole("button", { name: "Turn on" }).click();
    // (beside the field, which names it as its description)
    await page.getByText("This code is not right. Check it and try again.").waitFor();
    expect(await code.getAttribute("aria-invalid")).toBe("true");
    await code.fill(totp(key, Date.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.waitForURL(/notice=notice.account.twoFactorOn/);
    expect(calls).toEqual(["POST /api/auth/two-factor/verify-totp", "POST /api/auth/two-factor/verify-totp"]);
    await page.getByText("Two-step verification is on.", { exact: true }).waitFor();
    await page.getByText("Backup codes left: 10").waitFor();

    // Then, signed out, a saved backup code finishes a sign-in
    await context.clearCookies();
    const back = `${base}/account/second-factor`;
    await page.goto(`${base}/account/sign-in?redirect=${encodeURIComponent(back)}`);
    await hydrated(page);
    await page.getByLabel("Email address or username", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(/\/account\/two-factor/);
    await page.getByRole("link", { name: "Use a backup code instead" }).click();
    await hydrated(page);
    await page.getByLabel("Backup code", { exact: true }).fill(codes[3]);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(back);
    expect(await sessionEmail(page)).toBe(email);
    await page.getByText("Backup codes left: 9").waitFor();

    // New backup codes and turning off go through the API in place; a wrong password is said beside its field
    const calls2 = apiCallsOf(page);
    const codesForm = page.locator('form[action$="/second-factor/backup-codes"]');
    await codesForm.getByLabel("Password", { exact: true }).fill("not-the-password");
    await codesForm.getByRole("button", { name: "Make new backup codes" }).click();
    await codesForm.getByText("The password is not right.").waitFor();
    await codesForm.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await codesForm.getByRole("button", { name: "Make new backup codes" }).click();
    await page.getByText("These are your new backup codes; the old ones no longer work.", { exact: false }).waitFor();
    const newCodes = await page.locator(".authd-codes li").allTextContents();
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(codes[0]);
    const offForm = page.locator('form[action$="/second-factor/disable"]');
    await offForm.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await offForm.getByRole("button", { name: "Turn off two-step verification" }).click();
    await page.waitForURL(/notice=notice.account.twoFactorOff/);
    await page.getByText("Two-step verification is off.", { exact: true }).waitFor();
    expect(calls2.filter((call) => call.startsWith("POST"))).toEqual([
      "POST /api/auth/two-factor/generate-backup-codes",
      "POST /api/auth/two-factor/generate-backup-codes",
      "POST /api/auth/two-factor/disable",
    ]);
    // (the refusals asked for above aside: the wrong first code's 401, the wrong password's 400)
    expect(problems.filter((problem) => !/status of 40[01]/.test(problem))).toEqual([]);
    await context.close();
  }, 90_000);

  it("enrols with the keyboard alone", async () => {
    const context = await browser.newContext();
    await signUp(context, "keyboard");
    const page = await context.newPage();
    await page.goto(`${base}/account/second-factor`);
    await hydrated(page);
    /** Tab until the focused element matches, as a keyboard user would. */
    const tabTo = async (selector: string) => {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press("Tab");
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      }
      throw new Error(`no focus reached ${selector}`);
    };
    await tabTo("input[type=password]");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.locator("#authd-totp-secret").waitFor();
    await hydrated(page);
    const key = await keyOnPage(page);
    await tabTo("input[name=code]");
    await page.keyboard.type(totp(key, Date.now()));
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Turn on");
    await page.keyboard.press("Enter");
    await page.waitForURL(/notice=notice.account.twoFactorOn/);
    await page.getByText("Two-step verification is on.", { exact: true }).waitFor();
    await context.close();
  }, 60_000);
});

describe("the account page's passkeys", () => {
  it("adds a passkey named after the device, signs in with it, renames and removes it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const email = await signUp(context, "passkeys");
    const problems = consoleProblems(page);
    await page.goto(`${base}/account/passkeys`);
    await hydrated(page);
    await page.getByText("You have no passkeys yet.").waitFor();

    // The name field holds this browser and system; adding goes through the API's ceremony
    const name = page.getByLabel("Name of the passkey (optional)", { exact: true });
    await expect.poll(() => name.inputValue()).toBe("Chrome on Linux");
    const calls = apiCallsOf(page);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL(/notice=notice.account.passkeyAdded/);
    expect(calls).toEqual([
      "GET /api/auth/passkey/generate-register-options",
      "POST /api/auth/passkey/verify-registration",
    ]);
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
    await page.getByText("Your passkey has been added.").waitFor();
    await page.getByText("Chrome on Linux", { exact: true }).waitFor();
    await page.getByText("Not used to sign in yet").waitFor();

    // Signed out, the passkey signs them in, and the list says when it was last used
    await context.clearCookies();
    await page.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
    });
    const back = `${base}/account/passkeys`;
    await page.goto(`${base}/account/sign-in?redirect=${encodeURIComponent(back)}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(back);
    expect(await sessionEmail(page)).toBe(email);
    await hydrated(page);
    await page.getByText(/Last used: \d{4}-\d\d-\d\d \d\d:\d\d UTC/).waitFor();
    await shoot(page, { path: join(SHOTS, "account-passkeys-used-light-desktop-en.png"), fullPage: true });

    // Renamed in place
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("New name", { exact: true }).fill("Work laptop");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("The passkey has been renamed.").waitFor();
    await page.getByText("Work laptop", { exact: true }).waitFor();

    // Removed after asking once more
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByText("Remove “Work laptop”? You will not be able to sign in with it any more.").waitFor();
    await page.getByRole("button", { name: "Remove passkey" }).click();
    await page.getByText("The passkey has been removed.").waitFor();
    await page.getByText("You have no passkeys yet.").waitFor();
    const listed = await page.evaluate(async () => (await fetch("/api/auth/passkey/list-user-passkeys")).json());
    expect(listed).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});

describe("the account page's second factor and passkeys for everyone", () => {
  it("has no serious or critical accessibility violation, light and dark, phone and desktop", async () => {
    const found: string[] = [];
    for (const variant of PAGE_VARIANTS) {
      // axe is injected as a script of the test's own: the pages' policy rightly refuses it otherwise.
      const { name, axe, ...options } = variant;
      const context = await browser.newContext({ bypassCSP: true, ...options });
      await signUp(context, `axe-${name}`);
      const page = await context.newPage();
      await addVirtualAuthenticator(page);
      const look = async (view: string) => {
        await hydrated(page);
        for (const id of axe ? await seriousAxeViolations(page) : []) found.push(`${name} ${view}: ${id}`);
        await shoot(page, { path: join(SHOTS, `account-${view}-${name}.png`), fullPage: true });
      };
      await page.goto(`${base}/account/second-factor`);
      await look("second-factor-off");
      await page.locator("input[type=password]").fill(PASSWORD);
      await page.locator(`form[action$="/second-factor/enable"] button[type=submit]`).click();
      await page.locator("#authd-totp-secret").waitFor();
      await look("second-factor-enrol");
      await page.locator("input[name=code]").fill(totp(await keyOnPage(page), Date.now()));
      await page.locator(`form[action$="/second-factor/confirm"] button[type=submit]`).click();
      await page.waitForURL(/notice=notice.account.twoFactorOn/);
      await look("second-factor-on");
      await page.goto(`${base}/account/passkeys`);
      await hydrated(page);
      await page.locator(".authd-form button[type=submit]").click();
      await page.waitForURL(/notice=notice.account.passkeyAdded/);
      await look("passkeys");
      await context.close();
    }
    expect(found).toEqual([]);
  }, 240_000);
});
