import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";

// A user's screen in the console (issue 32) in headless Chromium against the compiled binary: an admin bans
// a user for a day (the user's session dies, checked over HTTP), lifts it, issues a key and revokes it,
// impersonates with a reason (the banner on the account page names the user), changes the user's name as
// them, stops, and the audit rows carry both ids. axe and screenshots, light and dark, of the user's screen
// and of the account page while impersonating. Screenshots go to test-artifacts/console/.

const SHOTS = join(ARTIFACTS_DIR, "console");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = "u5c0nsoleE2eT0ken-Zq8wR7mN2pL4kJ9hG6fD3sA1xC5vB8nM0qW2eR4tY6uI8oP";

let daemon: Daemon;
let browser: Browser;
let databaseURL: string;
let base: string;

beforeAll(async () => {
  databaseURL = `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-user-")), "auth.db")}`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = {
    AUTH_BASE_URL: base,
    AUTH_RATE_LIMIT: "off",
    AUTH_DATABASE_URL: databaseURL,
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

const server = () => {
  const agent = new LiveAgent(daemon.url, base);
  return (path: string, body: unknown) => agent.post(path, body, { authorization: `Bearer ${SERVER_TOKEN}` });
};

const newUser = (label: string, name: string) => users().signUp(uniqueEmail(label), name);

const stillSignedIn = async (agent: LiveAgent) => (await agent.get("/get-session")).json !== null;

/** Sign in on the pages' sign-in page, coming back to `path`. */
async function signIn(context: BrowserContext, email: string, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}${path}`);
  await page.getByLabel("Email address or username", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${base}${path}`);
  await page.locator("html[data-hydrated]").waitFor();
  return page;
}

/** Sign the browser context in through the API (whatever the page's language). */
const signInByAPI = (context: BrowserContext, email: string) => users().signIn(context, email);

const notice = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).waitFor();

it("bans, issues and revokes a key, impersonates with a reason and stops, every step recorded", async () => {
  const admin = await newUser("console-admin", "Console Admin");
  expect((await server()("/admin/set-role", { userId: admin.id, role: "admin" })).status).toBe(200);
  const target = await newUser("console-target", "Tess Target");
  const userPath = `/console/users/${target.id}`;
  const context = await browser.newContext({ colorScheme: "light", viewport: { width: 1280, height: 900 } });
  const page = await signIn(context, admin.email, userPath);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Tess Target");

  // Ban for a day: the user's session ends at once.
  const standing = page.getByRole("region", { name: "Standing" });
  await standing.getByLabel("Reason").fill("Chargeback fraud");
  await standing.getByLabel("For").selectOption({ label: "1 day" });
  await standing.getByLabel("Yes, I am sure").check();
  await standing.getByRole("button", { name: "Ban" }).click();
  await notice(page, "The user is banned and their sessions ended.");
  expect(await stillSignedIn(target.agent)).toBe(false);
  await shoot(page, { path: join(SHOTS, "user-banned.png"), fullPage: true });
  await page.getByRole("button", { name: "Lift the ban" }).click();
  await notice(page, "The ban is lifted.");

  // Issue a key with limits: shown once; it verifies; revoked, it no longer does.
  const keys = page.getByRole("region", { name: "API keys" });
  await keys.getByText("Issue a key for this user").click();
  await keys.getByLabel("Name").fill("nightly export");
  await keys.getByLabel("Refill amount").fill("50");
  await keys.getByLabel("Refill every (days)").fill("1");
  await keys.getByLabel("Permissions", { exact: true }).fill("exports:read");
  await keys.getByRole("button", { name: "Issue the key" }).click();
  const key = (await page.locator(".authd-console-secret").textContent()) ?? "";
  expect(key.length).toBeGreaterThan(20);
  await shoot(page, { path: join(SHOTS, "user-key-issued.png") });
  const verify = () => server()("/api-key/verify", { key });
  expect((await verify()).json).toMatchObject({ valid: true, key: { remaining: 49, refillAmount: 50 } });
  await page.goto(`${base}${userPath}`);
  const item = page.getByRole("article", { name: "nightly export" });
  await item.getByLabel("Yes, I am sure").check();
  await item.getByRole("button", { name: "Revoke" }).click();
  await notice(page, "The API key is revoked.");
  expect((await verify()).json).toMatchObject({ valid: false });

  // Impersonate with a reason: the browser lands on the user's account page, under the banner.
  const impersonate = page.getByRole("region", { name: "Impersonate" });
  await impersonate.getByLabel("Reason (kept in the audit log)").fill("Ticket 4711: cannot see invoices");
  expect(await impersonate.getByLabel("For at most").inputValue()).toBe("3600");
  await impersonate.getByRole("button", { name: "Impersonate" }).click();
  await page.waitForURL(`${base}/account`);
  await page.locator("html[data-hydrated]").waitFor();
  const banner = page.getByRole("complementary", { name: "Impersonation" });
  expect(await banner.textContent()).toContain(`You are acting as Tess Target (${target.email}) until`);
  await shoot(page, { path: join(SHOTS, "impersonating-account.png"), fullPage: true });

  // As the user: a change of name (with JavaScript, through the API), then stop.
  await page.getByLabel("Name", { exact: true }).fill("Tess Renamed");
  await page.getByRole("button", { name: "Save profile" }).click();
  await notice(page, "Your profile is saved.");
  await banner.getByRole("button", { name: "Stop impersonating" }).click();
  await page.waitForURL(new RegExp(`${userPath}\\?notice=`));
  await notice(page, "You stopped impersonating this user");
  expect(await page.getByRole("complementary", { name: "Impersonation" }).count()).toBe(0);
  await page.getByText(`Signed in as ${admin.email}`).waitFor();
  await context.close();

  // The audit rows: the admin as actor, the user as subject, both ids on what the impersonation did.
  const handle = openDatabase(databaseURL);
  try {
    const rows = await handle.db.selectFrom("auditEvent").selectAll().where("subjectId", "=", target.id).execute();
    const of = (type: string) => rows.filter((row) => row.type === type);
    expect(of("user_banned").map((row) => [row.actorType, row.actorId])).toEqual([["admin", admin.id]]);
    expect(of("api_key_created").map((row) => row.actorId)).toEqual([admin.id]);
    expect(of("api_key_deleted").map((row) => row.actorId)).toEqual([admin.id]);
    const [started] = of("impersonation_started");
    expect([started.actorType, started.actorId]).toEqual(["admin", admin.id]);
    expect(JSON.parse(started.data)).toMatchObject({ reason: "Ticket 4711: cannot see invoices" });
    for (const type of ["user_updated", "impersonation_stopped"]) {
      const [row] = of(type);
      expect([row.actorType, row.actorId], type).toEqual(["admin", admin.id]);
      expect(JSON.parse(row.data), type).toMatchObject({ impersonatedBy: admin.id, impersonatedUserId: target.id });
    }
  } finally {
    await handle.close();
  }
}, 120_000);

it("passes axe in light and dark: the user's screen, and the account page while impersonating", async () => {
  const admin = await newUser("axe-admin", "Axe Admin");
  expect((await server()("/admin/set-role", { userId: admin.id, role: "admin" })).status).toBe(200);
  const target = await newUser("axe-target", "Avery <Axe> Target");
  await server()("/api-key/create", { userId: target.id, name: "reports", remaining: 10 });
  const screenFindings = await checkPageVariants({
    browser,
    shots: SHOTS,
    prefix: "console",
    views: [{ name: "user", url: `${base}/console/users/${target.id}` }],
    prepare: (context) => signInByAPI(context, admin.email),
  });
  const bannerFindings = await checkPageVariants({
    browser,
    shots: SHOTS,
    prefix: "impersonating",
    views: [{ name: "account", url: `${base}/account` }],
    prepare: async (context) => {
      await signInByAPI(context, admin.email);
      const started = await context.request.post(`${base}/api/auth/admin/impersonate-user`, {
        data: { userId: target.id, reason: "axe" },
        headers: { origin: base },
      });
      expect(started.status()).toBe(200);
    },
  });
  expect([...screenFindings, ...bannerFindings]).toEqual([]);
}, 240_000);
