import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

// Headless Debian Chromium through playwright-core (test/setup.sh installs the package).

export const ARTIFACTS_DIR = join(new URL("../..", import.meta.url).pathname, "test-artifacts");

export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * The ids of axe-core's serious and critical findings on the page as it stands. axe is injected as a script
 * of the test's own: open the page in a context with `bypassCSP`, since the pages' policy rightly refuses it.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  });
}
