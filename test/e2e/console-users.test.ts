import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { createTestContext } from "../helpers/context.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { insertDirectoryUsers } from "../helpers/directory.ts";
import { LiveAgent } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";

// The console's users screen in headless Chromium against the compiled binary, over 10,000 users (written
// into the database before the daemon starts: signing 10,000 up over HTTP would measure sign-up): the search
// finds the one, and two users are banned from the list through the confirmation with JavaScript off (their
// sessions end, asked over HTTP); axe-core and screenshots on the list and the confirmation, light and dark.

const SHOTS = join(ARTIFACTS_DIR, "console-users");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");
const TAG = randomBytes(4).toString("hex");

let daemon: Daemon;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  const databaseURL = `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-users-")), "auth.db")}`;
  const seeding = await createTestContext({ databaseURL });
  const now = Date.now();
  await insertDirectoryUsers(
    seeding.ctx.db,
    Array.from({ length: 10_000 }, (_, n) => ({
      id: `e2e-${String(n).padStart(5, "0")}`,
      email: n === 7_777 ? `needle.${TAG}@findme.example` : `person.${n}@crowd.example`,
      name: n === 7_777 ? "Nadia Needle" : `Person ${n}`,
      createdAt: now - 10_000_000 + n * 1000,
      banned: n % 97 === 0,
      emailVerified: n % 10 !== 0,
    })),
  );
  await seeding.close();
  const env = {
    AUTH_BASE_URL: base,
    AUTH_RATE_LIMIT: "off",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_DATABASE_URL: databaseURL,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

/** A new user over HTTP (the agent holds their session), given `role` by the server when one is named. */
const newUser = (email: string, role?: string) => users().signUp(email, `User ${email}`, role);

const signIn = (context: BrowserContext, email: string) => users().signIn(context, email);

const alive = async (agent: LiveAgent) =>
  ((await agent.get("/get-session", { disableCookieCache: "true" })).json as { session?: unknown } | null)?.session !=
  null;

describe("the console's users screen in a browser", () => {
  let admin: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    admin = await newUser(`admin.${TAG}@e2e.example`, "admin");
  });

  it("finds the one user among 10,000 by the start of their email", async () => {
    const context = await browser.newContext();
    await signIn(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/users`);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.locator(".authd-console-pager p").textContent()).toContain("of more than 10,000");
    await page.getByLabel("Search users").fill("NEEDLE.");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/search=NEEDLE/);
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(`needle.${TAG}@findme.example`);
    expect(await page.locator(".authd-console-pager p").textContent()).toBe("1–1 of 1");
    await shoot(page, { path: join(SHOTS, "console-users-needle.png"), fullPage: true });
    await context.close();
  }, 60_000);

  it("bans two users from the list after a confirmation, without JavaScript, and their sessions end", async () => {
    const one = await newUser(`victim.one.${TAG}@e2e.example`);
    const two = await newUser(`victim.two.${TAG}@e2e.example`);
    const bystander = await newUser(`victim.three.${TAG}@e2e.example`);
    const context = await browser.newContext({ javaScriptEnabled: false });
    await signIn(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/users?search=${encodeURIComponent(`victim.`)}&sort=email`);
    expect(await page.locator("tbody tr").count()).toBe(3);
    await page.getByLabel(`Choose ${one.email}`).check();
    await page.getByLabel(`Choose ${two.email}`).check();
    await page.getByRole("button", { name: "Ban…", exact: true }).click();

    await page.waitForURL(/\/console\/users-bulk\/ban\?/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ban these users?");
    const chosen = await page.locator(".authd-console-users-chosen").textContent();
    expect(chosen).toContain(one.email);
    expect(chosen).toContain(two.email);
    expect(chosen).not.toContain(bystander.email);
    await page.getByLabel("Reason").fill("e2e spam wave");
    await page.getByLabel("Ban for").selectOption("86400");
    await shoot(page, { path: join(SHOTS, "console-users-confirm-ban.png"), fullPage: true });
    await page.getByRole("button", { name: "Ban 2 users" }).click();

    await page.waitForURL(/notice=console\.users\.notice\.banned/);
    expect(page.url()).toContain("search=victim.");
    expect(await page.getByRole("status").first().textContent()).toContain("banned and signed out");
    expect([await alive(one.agent), await alive(two.agent), await alive(bystander.agent)]).toEqual([
      false,
      false,
      true,
    ]);
    const again = await new LiveAgent(daemon.url, base).post("/sign-in/email", {
      email: one.email,
      password: PASSWORD,
    });
    expect(again.status).toBe(403);
    await shoot(page, { path: join(SHOTS, "console-users-after-ban.png"), fullPage: true });
    await context.close();
  }, 60_000);

  it("has no serious or critical accessibility violation on the list and the confirmation, light and dark", async () => {
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console-users",
      views: [
        { name: "list", url: `${base}/console/users?banned=yes&sort=email` },
        { name: "confirm", url: `${base}/console/users-bulk/ban?user=e2e-00001&user=e2e-00002&back=banned%3Dyes` },
      ],
      prepare: (context) => signIn(context, admin.email),
    });
    expect(found).toEqual([]);
  }, 180_000);
});
