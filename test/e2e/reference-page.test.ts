import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";

// The compiled binary serves the API reference (renderer embedded, no network) and the error page,
// rendered in headless Chromium. Screenshots land in test-artifacts/.

describe("pages in a real browser, served by the compiled binary", () => {
  let daemon: Daemon;
  let browser: Browser;
  beforeAll(async () => {
    daemon = await startDaemon([buildBinary()]);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("renders the API reference with the routes the daemon serves", async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));
    await page.goto(`${daemon.url}/api/reference`);
    await page.waitForSelector(".opblock", { timeout: 20_000 });
    const paths = await page.$$eval(".opblock-summary-path", (nodes) =>
      nodes.map((n) => n.textContent?.replace(/\u200b/g, "").trim()),
    );
    expect(paths).toContain("/api/auth/sign-up/email");
    expect(paths).toContain("/api/auth/get-session");
    expect(failed).toEqual([]);
    await shoot(page, { path: join(ARTIFACTS_DIR, "api-reference.png"), fullPage: false });
    await page.close();
  });

  it("shows the error code escaped, never executed", async () => {
    const page = await browser.newPage();
    let dialogs = 0;
    page.on("dialog", async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
    await page.goto(`${daemon.url}/api/auth/error?error=${encodeURIComponent(payload)}`);
    expect(await page.textContent("#error-code")).toBe(payload);
    expect(await page.$$eval("main script, main img", (nodes) => nodes.length)).toBe(0);
    expect(dialogs).toBe(0);
    // "Go back" leads to AUTH_APP_URL, by default the base URL (whose GET / is a page, not a JSON 404).
    expect(await page.getAttribute("a", "href")).toBe(daemon.url);
    await shoot(page, { path: join(ARTIFACTS_DIR, "error-page.png") });
    await page.click("a");
    expect(await page.textContent("h1")).toBe("authd");
    expect(await page.getAttribute("a[href='/api/reference']", "href")).toBe("/api/reference");
    await page.close();
  });
});
