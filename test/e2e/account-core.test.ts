import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { buildBinary } from "../helpers/binary.ts";
import {
  ARTIFACTS_DIR,
  addVirtualAuthenticator,
  checkPageVariants,
  launchChromium,
  registerPasskeyInPage,
  shoot,
} from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";

// The account page's own sections (profile, password, sessions, delete) and re-authentication in headless
// Chromium, served by the compiled binary: with JavaScript (the forms call the API in place) and without
// (plain posts, 303 and a notice); axe-core on each page, light and dark. Screenshots go to
// test-artifacts/pages/.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const PASSWORD = "correct-horse-battery";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DELETE_LINK = /http:\/\/\S+\/api\/auth\/delete-user\/callback\?\S+/;

let daemon: Daemon;
let mailbox: Mailbox;
let browser: Browser;
let databaseURL: string;
/** The pages' origin: localhost, the one host Chromium takes as a passkey's rp id over plain http. */
let base: string;

beforeAll(async () => {
  mailbox = await startMailbox();
  databaseURL = `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-account-")), "auth.db")}`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = {
    AUTH_BASE_URL: base,
    AUTH_SMTP_URL: mailbox.url,
    AUTH_RATE_LIMIT: "off",
    AUTH_DATABASE_URL: databaseURL,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await mailbox?.close();
});

/** A new user signed up over HTTP; `agent` holds one session of theirs. */
async function newUser(label: string) {
  const agent = new LiveAgent(daemon.url, base);
  const email = uniqueEmail(label);
  const signedUp = await agent.post("/sign-up/email", { name: "Account Person", email, password: PASSWORD });
  expect(signedUp.status).toBe(200);
  return { agent, email };
}

/** Another session of the user, from a device named by its user agent. */
async function otherSession(email: string, userAgent = FIREFOX_ON_WINDOWS): Promise<LiveAgent> {
  const agent = new LiveAgent(daemon.url, base);
  const signedIn = await agent.post("/sign-in/email", { email, password: PASSWORD }, { "user-agent": userAgent });
  expect(signedIn.status).toBe(200);
  return agent;
}

const stillSignedIn = async (agent: LiveAgent) => (await agent.get("/get-session")).json !== null;

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

/** Sign in on the sign-in page; it lands on the account page (no return address, no AUTH_APP_URL). */
async function signInToAccount(context: BrowserContext, email: string, javaScript: boolean): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/account`);
  await page.waitForURL(/\/account\/sign-in\?redirect=%2Faccount$/);
  await page.getByLabel("Email address or username", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${base}/account`);
  if (javaScript) await hydrated(page);
  return page;
}

async function openSection(page: Page, path: string, javaScript: boolean) {
  await page.goto(`${base}/account${path}`);
  if (javaScript) await hydrated(page);
}

/** The section's notice, once it shows. */
const notice = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).waitFor();

/** Make every session of the user look signed in 11 minutes ago (older than account.freshAge). */
async function ageSignIns(email: string) {
  const handle = openDatabase(databaseURL);
  try {
    const user = await handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const earlier = Date.now() - 11 * 60 * 1000;
    await handle.db.updateTable("session").set({ createdAt: earlier }).where("userId", "=", user.id).execute();
  } finally {
    await handle.close();
  }
}

/** The page's calls of the JSON API (only made with JavaScript). */
function apiCallsOf(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/")) calls.push(new URL(request.url()).pathname);
  });
  return calls;
}

describe("the account page with JavaScript on", () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext();
  });
  afterAll(() => context?.close());

  it("changes the name in place", async () => {
    const { email } = await newUser("name-js");
    const page = await signInToAccount(context, email, true);
    const problems = collectProblems(page);
    const calls = apiCallsOf(page);
    await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save profile" }).click();
    await notice(page, "Your profile is saved.");
    expect(await page.locator(".authd-account-name").textContent()).toBe("Ada Lovelace");
    expect(calls).toContain("/api/auth/update-user");
    expect(page.url()).toBe(`${base}/account`);
    expect(problems).toEqual([]);
    await context.clearCookies();
  });

  it("changes the password and signs the other session out, checked over HTTP", async () => {
    const { email } = await newUser("password-js");
    const elsewhere = await otherSession(email);
    const page = await signInToAccount(context, email, true);
    await openSection(page, "/password", true);
    await page.getByLabel("Current password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password");
    await page.getByLabel("Sign out everywhere else").check();
    await page.getByRole("button", { name: "Change password" }).click();
    await notice(page, "Your password is changed, and every other session is signed out.");
    expect(await stillSignedIn(elsewhere)).toBe(false);
    // This browser goes on in its new session.
    await openSection(page, "/sessions", true);
    await page.getByText("This browser").waitFor();
    await context.clearCookies();
  });

  it("signs another session out", async () => {
    const { email } = await newUser("sessions-js");
    const laptop = await otherSession(email);
    const page = await signInToAccount(context, email, true);
    await openSection(page, "/sessions", true);
    const entry = page.locator(".authd-session").filter({ hasText: "Firefox on Windows" });
    await entry.getByRole("button", { name: "Sign out" }).click();
    await notice(page, "That session is signed out.");
    await expect.poll(() => entry.count()).toBe(0);
    expect(await stillSignedIn(laptop)).toBe(false);
    await context.clearCookies();
  });

  it("sends a stale sign-in through re-authentication, then makes the change", async () => {
    const { email } = await newUser("fresh-js");
    const page = await signInToAccount(context, email, true);
    await ageSignIns(email);
    const moved = uniqueEmail("moved");
    await page.getByLabel("New email address", { exact: true }).fill(moved);
    await page.getByRole("button", { name: "Change email address" }).click();
    await page.waitForURL(/\/account\/reauthenticate\?redirect=%2Faccount$/);
    await page.getByText(`You are signed in as ${email}.`).waitFor();
    await shoot(page, { path: join(SHOTS, "account-reauthenticate-flow.png") });
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await page.waitForURL(/\/account\?notice=notice\.account\.reauthenticated$/);
    await hydrated(page);
    await page.getByLabel("New email address", { exact: true }).fill(moved);
    await page.getByRole("button", { name: "Change email address" }).click();
    await notice(page, "Your email address is changed.");
    expect(await page.locator(".authd-account-email").textContent()).toBe(moved);
    await context.clearCookies();
  });

  it("confirms a stale sign-in with a passkey, then changes the password", async () => {
    const { email } = await newUser("passkey-js");
    const page = await signInToAccount(context, email, true);
    await addVirtualAuthenticator(page);
    expect(await registerPasskeyInPage(page)).toBe(200);
    await ageSignIns(email);
    await openSection(page, "/password", true);
    await page.getByLabel("Current password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("after-the-passkey");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(/\/account\/reauthenticate\?redirect=%2Faccount%2Fpassword$/);
    await hydrated(page);
    await page.getByRole("button", { name: "Confirm with a passkey" }).click();
    await page.waitForURL(/\/account\/password\?notice=notice\.account\.reauthenticated$/);
    await hydrated(page);
    await page.getByLabel("Current password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("after-the-passkey");
    await page.getByRole("button", { name: "Change password" }).click();
    await notice(page, "Your password is changed.");
    await context.clearCookies();
  });

  it("deletes the account through the mailed confirmation", async () => {
    const { email } = await newUser("delete-js");
    const page = await signInToAccount(context, email, true);
    await openSection(page, "/delete", true);
    const since = Date.now();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("I understand that this cannot be undone").check();
    await page.getByRole("button", { name: "Delete my account" }).click();
    await notice(page, "We have sent you a link to confirm the deletion.");
    const mail = await mailbox.waitFor(email, DELETE_LINK, { since });
    await page.goto(mail.match[0]);
    await page.waitForURL(/\/account\/delete-account\?token=/);
    await hydrated(page);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.getByText("Your account has been deleted.").waitFor();
    const signIn = await new LiveAgent(daemon.url, base).post("/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(401);
    await context.clearCookies();
  });
});

describe("the account page with JavaScript off", () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ javaScriptEnabled: false });
  });
  afterAll(() => context?.close());

  it("saves the profile, changes the password and signs another session out with plain forms", async () => {
    const { email } = await newUser("forms");
    const laptop = await otherSession(email);
    const page = await signInToAccount(context, email, false);
    const calls = apiCallsOf(page);

    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.waitForURL(/\/account\?notice=notice\.account\.profileSaved$/);
    await notice(page, "Your profile is saved.");
    expect(await page.locator(".authd-account-name").textContent()).toBe("Grace Hopper");

    await openSection(page, "/password", false);
    await page.getByLabel("Current password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("plain-form-password");
    await page.getByRole("button", { name: "Change password" }).click();
    await notice(page, "Your password is changed.");

    await openSection(page, "/sessions", false);
    const entry = page.locator(".authd-session").filter({ hasText: "Firefox on Windows" });
    await entry.getByRole("button", { name: "Sign out" }).click();
    await notice(page, "That session is signed out.");
    expect(await entry.count()).toBe(0);
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("the account page for everyone", () => {
  it("has no serious or critical accessibility violation, light and dark, phone and desktop", async () => {
    const { email } = await newUser("axe");
    await otherSession(email);
    await otherSession(email, SAFARI_ON_IPHONE);
    const views = [
      { name: "profile", path: "" },
      { name: "password", path: "/password" },
      { name: "sessions", path: "/sessions" },
      { name: "delete", path: "/delete" },
      { name: "reauthenticate", path: "/reauthenticate?redirect=%2Faccount%2Fpassword" },
    ].map((view) => ({ name: view.name, url: `${base}/account${view.path}` }));
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "account",
      views,
      prepare: async (context) => {
        const signIn = await context.request.post(`${base}/api/auth/sign-in/email`, {
          data: { email, password: PASSWORD },
          headers: { origin: base },
        });
        expect(signIn.status()).toBe(200);
      },
    });
    expect(found).toEqual([]);
  }, 180_000);
});

describe("the pages right to left", () => {
  it("mirror their layout when the document's direction is rtl: the account navigation on the right, text from the right", async () => {
    // Only left-to-right languages ship today; the styles use logical properties and [dir="rtl"], so a
    // right-to-left catalogue needs no style of its own. Proven here by turning the direction over.
    const { email } = await newUser("rtl");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInToAccount(context, email, true);
    const layout = () =>
      page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect();
        return {
          nav: box(".authd-account-nav")?.left ?? 0,
          main: box(".authd-account-main")?.left ?? 0,
          // Where the first label's words end: at the section's right edge only when text runs right to left.
          labelRight: (() => {
            const label = document.querySelector(".authd-label");
            if (!label?.firstChild) return 0;
            const words = document.createRange();
            words.selectNodeContents(label.firstChild);
            return words.getBoundingClientRect().right;
          })(),
          mainRight: box(".authd-account-main")?.right ?? 0,
        };
      });
    const ltr = await layout();
    expect(ltr.nav).toBeLessThan(ltr.main);
    expect(ltr.mainRight - ltr.labelRight).toBeGreaterThan(200);
    await page.evaluate(() => {
      document.documentElement.dir = "rtl";
    });
    const rtl = await layout();
    expect(rtl.nav).toBeGreaterThan(rtl.main);
    // The form's labels start at the right edge of the section (within its padding).
    expect(rtl.mainRight - rtl.labelRight).toBeLessThan(48);
    await shoot(page, { path: join(SHOTS, "account-profile-rtl-desktop.png"), fullPage: true });
    await context.close();
  });
});

describe.each([
  { javaScript: true, label: "on" },
  { javaScript: false, label: "off" },
])("the account page's language choice, JavaScript $label", ({ javaScript }) => {
  // Issues 28 and 31: the user's own language comes before the browser's; the form posts either way.
  it("shows the page in German once German is chosen, and in English again with the browser's", async () => {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, locale: "en-US" });
    const { email } = await newUser(javaScript ? "language-js" : "language-nojs");
    const page = await signInToAccount(context, email, javaScript);
    const problems = collectProblems(page);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.getByLabel("Language of these pages and of the mails we send you").selectOption("de");
    await page.getByRole("button", { name: "Save language" }).click();
    await notice(page, "Ihre Sprache ist gespeichert.");
    expect(page.url()).toBe(`${base}/account?notice=notice.account.languageSaved`);
    expect(await page.getAttribute("html", "lang")).toBe("de");
    await page.getByRole("heading", { name: "Sprache" }).waitFor();

    await page.getByLabel("Sprache dieser Seiten und der E-Mails, die wir Ihnen senden").selectOption("");
    await page.getByRole("button", { name: "Sprache speichern" }).click();
    await notice(page, "Your language is saved.");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(problems).toEqual([]);
    await context.close();
  });
});
