import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, checkPageVariants, consoleProblems, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, freePort, startDaemon } from "../helpers/daemon.ts";
import { uniqueEmail } from "../helpers/live-agent.ts";
import { LiveUsers } from "../helpers/live-users.ts";

// The console's mail screen in headless Chromium against the compiled binary (issue 31: the console shows the
// same previews as `authd mail preview`): an admin picks a mail and a language in the form, sees the
// operator's German template in both parts, its HTML part drawn in its sandboxed frame; axe-core and
// screenshots light and dark.

const SHOTS = join(ARTIFACTS_DIR, "console");
const PASSWORD = "correct-horse-battery";
const SERVER_TOKEN = randomBytes(32).toString("base64url");
const GERMAN_RESET = "Subject: Neues Passwort für {{appName}}\n\nHallo {{name}},\n\n[Passwort wählen]({{link}})\n";

let daemon: Daemon;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const templates = mkdtempSync(join(tmpdir(), "authd-console-mail-"));
  writeFileSync(join(templates, "reset-password.de.md"), GERMAN_RESET);
  const port = await freePort();
  base = `http://localhost:${port}`;
  daemon = await startDaemon(
    [buildBinary()],
    {
      AUTH_BASE_URL: base,
      AUTH_RATE_LIMIT: "off",
      AUTH_SERVER_TOKEN: SERVER_TOKEN,
      AUTH_APP_NAME: "Acme",
      AUTH_MAIL_TEMPLATES: templates,
      AUTH_DATABASE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), "authd-console-mail-db-")), "auth.db")}`,
    },
    port,
  );
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const users = () => new LiveUsers(daemon.url, base, SERVER_TOKEN, PASSWORD);

describe("the console's mail screen in a browser", () => {
  it("shows the mail and language chosen in its form, the HTML part drawn in its frame", async () => {
    const admin = await users().signUp(uniqueEmail("mail-admin"), "Mail Admin", "admin");
    const context = await browser.newContext();
    await users().signIn(context, admin.email);
    const page = await context.newPage();
    const problems = consoleProblems(page);
    await page.goto(`${base}/console`);
    await page.getByRole("navigation").getByRole("link", { name: "Mail" }).click();
    await page.waitForURL(`${base}/console/mail`);
    await page.locator("html[data-hydrated]").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Mail");
    await page.frameLocator("iframe").getByRole("link", { name: "Confirm my address" }).waitFor();

    await page.getByRole("combobox", { name: "Mail", exact: true }).selectOption("reset-password");
    await page.getByRole("combobox", { name: "Language", exact: true }).selectOption({ label: "German" });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(`${base}/console/mail?mail=reset-password&lang=de`);
    await page.getByText("Neues Passwort für Acme", { exact: true }).waitFor();
    await page.getByText("reset-password.de.md", { exact: false }).waitFor();
    expect(await page.locator("pre").textContent()).toContain("Passwort wählen");
    const button = page.frameLocator("iframe").getByRole("link", { name: "Passwort wählen" });
    expect(await button.getAttribute("href")).toMatch(
      new RegExp(`^${base}/api/auth/reset-password/SAMPLE-TOKEN-opens-nothing\\?callbackURL=`),
    );
    await shoot(page, { path: join(SHOTS, "console-mail-template-light-desktop-en.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("has no serious or critical accessibility violation, light and dark", async () => {
    const admin = await users().signUp(uniqueEmail("mail-axe"), "Mail Axe", "admin");
    const found = await checkPageVariants({
      browser,
      shots: SHOTS,
      prefix: "console",
      views: [{ name: "mail", url: `${base}/console/mail?mail=verify-email` }],
      prepare: (context) => users().signIn(context, admin.email),
    });
    expect(found).toEqual([]);
  }, 120_000);
});
