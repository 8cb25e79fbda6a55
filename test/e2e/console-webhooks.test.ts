import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";
import { type Answer, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// The console's webhooks and settings screens in headless Chromium against the compiled binary: an admin
// adds an endpoint whose receiver fails, the daemon's worker logs the failed delivery, the receiver is made
// to answer, a resend from the log gets through and the log shows it; axe-core and screenshots, light and
// dark, on the webhooks list, an endpoint's log and the settings.

const SHOTS = join(ARTIFACTS_DIR, "console");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");

let daemon: Daemon;
let browser: Browser;
let base: string;
let receiver: Receiver;
let answer: Answer = "fail";

beforeAll(async () => {
  receiver = await startReceiver(() => answer);
  const port = await freePort();
  base = `http://localhost:${port}`;
  const env = {
    AUTH_BASE_URL: base,
    AUTH_RATE_LIMIT: "off",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_WEBHOOK_ALLOWED_PRIVATE: "127.0.0.1",
    AUTH_WEBHOOK_TIMEOUT_MS: "3000",
    AUTH_DATABASE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-webhooks-")), "auth.db")}`,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await receiver?.close();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

/** A new user over HTTP, given `role` by the server when one is named. */
const newUser = (label: string, role?: string) => users().signUp(uniqueEmail(label), `Webhooks ${label}`, role);

const signIn = (context: BrowserContext, email: string) => users().signIn(context, email);

describe("the console's webhooks and settings in a browser", () => {
  let endpointPath = "";

  it("shows a failed delivery in the log and resends it once the receiver answers", async () => {
    const admin = await newUser("webhooks-admin", "admin");
    const context = await browser.newContext();
    await signIn(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/webhooks`);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Webhooks");

    await page.getByLabel("URL", { exact: true }).fill(receiver.url);
    await page.getByLabel("sign_up", { exact: true }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { name: "New signing secret" }).waitFor();
    expect(await page.getByLabel("Secret", { exact: true }).inputValue()).toMatch(/^whsec_/);
    await shoot(page, { path: join(SHOTS, "console-webhooks-secret.png"), fullPage: true });

    // An event the endpoint asked for: the daemon's worker sends it, and the receiver answers 500.
    await newUser("webhooks-subject");
    await page.getByRole("link", { name: receiver.url }).click();
    await page.waitForURL(/\/console\/webhooks\/wh_/);
    endpointPath = new URL(page.url()).pathname;
    const failedRow = page.locator("tbody tr", { hasText: "HTTP 500" }).first();
    await expect
      .poll(
        async () => {
          await page.reload();
          return failedRow.count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    expect(await failedRow.textContent()).toContain("sign_up");
    await shoot(page, { path: join(SHOTS, "console-webhook-failed.png"), fullPage: true });

    answer = "ok";
    await failedRow.getByRole("button", { name: "Resend" }).click();
    await page.waitForURL(/notice=console\.webhooks\.notice\.resent/);
    expect(await page.getByRole("status").textContent()).toBe("Sent again and delivered.");
    const resent = page.locator("tbody tr", { hasText: "HTTP 204" }).first();
    expect(await resent.textContent()).toContain("Resend");
    expect(receiver.received.some((hook) => hook.attempt > 1)).toBe(true);
    await shoot(page, { path: join(SHOTS, "console-webhook-resent.png"), fullPage: true });

    // The failed-only view still lists the failure, not the resend.
    await page.getByRole("link", { name: "Failed only" }).click();
    await page.waitForURL(/failed=1/);
    expect(await page.locator("tbody tr", { hasText: "HTTP 204" }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it("has no serious or critical accessibility violation on the webhooks and settings screens, light and dark", async () => {
    expect(endpointPath).toMatch(/^\/console\/webhooks\/wh_/);
    const admin = await newUser("webhooks-axe", "admin");
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console",
      views: [
        { name: "webhooks", url: `${base}/console/webhooks` },
        { name: "webhook-log", url: `${base}${endpointPath}` },
        { name: "settings", url: `${base}/console/settings` },
      ],
      prepare: (context) => signIn(context, admin.email),
    });
    expect(found).toEqual([]);
  }, 180_000);
});
