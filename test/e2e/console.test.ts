import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";

// The console's door in headless Chromium against the compiled binary: an admin with a second factor signs
// in through the pages and lands on the console; a user without admin permissions is refused; another
// origin cannot frame it; axe-core on the users screen, light and dark, phone and desktop.

const SHOTS = join(ARTIFACTS_DIR, "console");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");

let daemon: Daemon;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = {
    AUTH_BASE_URL: base,
    AUTH_RATE_LIMIT: "off",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_DATABASE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-")), "auth.db")}`,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

/** A new user over HTTP, given `role` by the server when one is named. */
const newUser = (label: string, role?: string) => users().signUp(uniqueEmail(label), `Console ${label}`, role);

describe("the web console in a browser", () => {
  it("lets an admin with a second factor in through the sign-in page and finds a user by search", async () => {
    const admin = await newUser("admin-2fa", "admin");
    const enabled = await admin.agent.post("/two-factor/enable", { password: PASSWORD });
    const key = keyOf((enabled.json as { totpURI: string }).totpURI);
    expect((await admin.agent.post("/two-factor/verify-totp", { code: totp(key, Date.now()) })).status).toBe(200);
    const target = await newUser("findme");

    const page = await browser.newPage();
    await page.goto(`${base}/console`);
    await page.waitForURL(/\/account\/sign-in\?redirect=/);
    await page.locator('input[name="identifier"]').fill(admin.email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(/\/account\/two-factor/);
    await page.locator('input[name="code"]').fill(totp(key, Date.now()));
    await page.getByRole("button", { name: "Verify" }).click();
    // The console's home is the overview; the users screen is one link of its navigation away.
    await page.waitForURL(`${base}/console`);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Users" }).click();
    await page.waitForURL(/\/console\/users/);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Users");

    await page.getByLabel("Search users").fill(target.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/search=/);
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(target.email);
    await shoot(page, { path: join(SHOTS, "console-users-search.png"), fullPage: true });
    await page.close();
  }, 60_000);

  it("refuses a signed-in user without admin permissions", async () => {
    const plain = await newUser("plain");
    const context = await browser.newContext();
    const signIn = await context.request.post(`${base}/api/auth/sign-in/email`, {
      data: { email: plain.email, password: PASSWORD },
      headers: { origin: base },
    });
    expect(signIn.status()).toBe(200);
    const page = await context.newPage();
    const answer = await page.goto(`${base}/console/users`);
    expect(answer?.status()).toBe(403);
    expect(await page.textContent("body")).toContain("The console is for administrators");
    await context.close();
  });

  it("cannot be framed by another origin", async () => {
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on("console", (message) => refusals.push(message.text()));
    // 127.0.0.1 is another origin than localhost: the page there frames the console.
    await page.goto(`${daemon.url}/api/auth/ok`);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      document.body.append(frame);
    }, `${base}/console/users`);
    await expect.poll(() => refusals.some((text) => text.includes("frame-ancestors"))).toBe(true);
    await page.close();
  });

  it("has no serious or critical accessibility violation on the users screen, light and dark", async () => {
    const admin = await newUser("admin-axe", "admin");
    await newUser("listed");
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console",
      views: [{ name: "users", url: `${base}/console/users` }],
      prepare: async (context) => {
        const signIn = await context.request.post(`${base}/api/auth/sign-in/email`, {
          data: { email: admin.email, password: PASSWORD },
          headers: { origin: base },
        });
        expect(signIn.status()).toBe(200);
      },
    });
    expect(found).toEqual([]);
  }, 120_000);
});
