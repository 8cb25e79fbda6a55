import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";

// The console's audit log and overview in headless Chromium against the compiled binary: an admin reads
// the log filtered by one user (the GET form, as a person fills it in), downloads it as CSV and JSON Lines
// and finds in each file that user's events only, a hostile user agent made inert in the CSV; the range of
// the overview's charts switches by link; axe-core and screenshots, light and dark, on each screen.

const SHOTS = join(ARTIFACTS_DIR, "console");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");
const HOSTILE_AGENT = '=HYPERLINK("https://evil.example","open")';

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
    AUTH_DATABASE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-audit-")), "auth.db")}`,
  };
  daemon = await startDaemon([buildBinary()], env, port);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

const newUser = (label: string, role?: string) => users().signUp(uniqueEmail(label), `Audit ${label}`, role);

const signInAs = (context: BrowserContext, email: string) => users().signIn(context, email);

/** Click a download link and answer the file's text. */
async function download(page: Page, name: string): Promise<{ text: string; file: string }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  return { text: readFileSync(await file.path(), "utf8"), file: file.suggestedFilename() };
}

describe("the console's audit log and overview in a browser", () => {
  let admin: { email: string; id: string };
  let target: { email: string; id: string };
  let eventPath = "";

  beforeAll(async () => {
    admin = await newUser("audit-admin", "admin");
    target = await newUser("audit-target");
    await newUser("bystander");
    const stranger = new LiveAgent(daemon.url, base);
    for (let n = 0; n < 2; n += 1)
      await stranger.post(
        "/sign-in/email",
        { email: target.email, password: "not-the-password" },
        { "user-agent": HOSTILE_AGENT },
      );
  });

  it("reads the log filtered by one user and downloads it as CSV and JSON Lines", async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    await signInAs(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console/audit`);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Audit log");

    await page.getByLabel("User", { exact: true }).fill(target.email);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/user=/);
    await page.locator("html[data-hydrated]").waitFor();
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(3);
    for (const row of await rows.all()) expect(await row.textContent()).toContain(target.email);
    expect(await page.getByLabel("User", { exact: true }).inputValue()).toBe(target.email);
    await shoot(page, { path: join(SHOTS, "console-audit-filtered.png"), fullPage: true });

    const csv = await download(page, "Download as CSV");
    expect(csv.file).toMatch(/^authd-audit-\d{8}T\d{4}Z\.csv$/);
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,createdAt,type,outcome,actorType,actorId,subjectId,subjectEmail,organizationId,ip,userAgent,data",
    );
    expect(lines.slice(1).map((line) => line.split(",")[2])).toEqual(["sign_in", "sign_in", "sign_up"]);
    for (const line of lines.slice(1)) expect(line).toContain(`,${target.id},${target.email},`);
    expect(lines[1]).toContain('"\'=HYPERLINK(""https://evil.example"",""open"")"');

    const jsonl = await download(page, "Download as JSON Lines");
    expect(jsonl.file).toMatch(/\.jsonl$/);
    const events = jsonl.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; subjectId: string; userAgent: string | null });
    expect(events.map((event) => event.type)).toEqual(["sign_in", "sign_in", "sign_up"]);
    expect(events.every((event) => event.subjectId === target.id)).toBe(true);
    expect(events[0].userAgent).toBe(HOSTILE_AGENT);

    await rows.first().getByRole("link").click();
    await page.waitForURL(/\/console\/audit\/[^?]+$/);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Event sign_in");
    expect(await page.textContent("main")).toContain(HOSTILE_AGENT);
    eventPath = new URL(page.url()).pathname;
    await context.close();
  }, 90_000);

  it("switches the overview's range by link, without JavaScript too", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await signInAs(context, admin.email);
    const page = await context.newPage();
    await page.goto(`${base}/console`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");
    const charts = page.locator('svg[role="img"]');
    expect(await charts.count()).toBe(3);
    expect(await charts.nth(2).getAttribute("aria-label")).toMatch(
      /^Failed sign-ins per hour over the last 24 hours: 2 in all/,
    );
    await page.getByRole("link", { name: "Last 30 days" }).click();
    await page.waitForURL(/range=30d/);
    expect(await page.getByRole("link", { name: "Last 30 days" }).getAttribute("aria-current")).toBe("page");
    expect(await charts.nth(0).getAttribute("aria-label")).toMatch(/^Sign-ups per day over the last 30 days: /);
    await page.getByText("The figures as a table").click();
    expect(await page.locator("details table tbody tr").count()).toBe(30);
    await shoot(page, { path: join(SHOTS, "console-overview-30d-table.png"), fullPage: true });
    await context.close();
  }, 60_000);

  it("has no serious or critical accessibility violation on the overview and the audit log, light and dark", async () => {
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console",
      views: [
        { name: "overview", url: `${base}/console` },
        { name: "overview-30d", url: `${base}/console?range=30d` },
        { name: "audit", url: `${base}/console/audit?user=${encodeURIComponent(target.email)}` },
        { name: "audit-event", url: `${base}${eventPath}` },
      ],
      prepare: (context) => signInAs(context, admin.email),
    });
    expect(found).toEqual([]);
  }, 180_000);
});
