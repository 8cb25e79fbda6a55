import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";

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

/**
 * The four ways each page is photographed: light and dark, desktop and phone, English and German. axe runs
 * in two of them (one light desktop, one dark phone): its findings do not change with the language.
 */
export const PAGE_VARIANTS = [
  {
    name: "light-desktop-en",
    colorScheme: "light",
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    axe: true,
  },
  { name: "dark-phone-de", colorScheme: "dark", viewport: { width: 390, height: 844 }, locale: "de-DE", axe: true },
  { name: "dark-desktop-en", colorScheme: "dark", viewport: { width: 1280, height: 800 }, locale: "en-US", axe: false },
  { name: "light-phone-de", colorScheme: "light", viewport: { width: 390, height: 844 }, locale: "de-DE", axe: false },
] as const;

/** A platform authenticator with discoverable credentials and user verification, as a laptop has. */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Console errors and failed requests of a page, but Chromium's own ask for a /favicon.ico that no page names. */
export function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) problems.push(message.text());
  });
  page.on("requestfailed", (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
  return problems;
}
