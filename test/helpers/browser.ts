import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";

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

/**
 * A screenshot as a review artifact. Headless Chromium on a loaded machine now and then answers "Unable to
 * capture screenshot" for a full-page shot; the picture is not what a test asserts, so try again after a
 * moment, and as the last resort keep the visible part rather than fail the test.
 */
export async function shoot(page: Page, options: { path: string; fullPage?: boolean }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot(attempt < 4 ? options : { ...options, fullPage: false });
      return;
    } catch (error) {
      if (attempt >= 4 || !String(error).includes("Unable to capture screenshot")) throw error;
      await page.waitForTimeout(250 * attempt);
    }
  }
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

/**
 * Open each of `views` (a name and a URL) in every page variant, once the page is live: axe-core where the
 * variant runs it, and a full-page screenshot to `${shots}/${prefix}-${view}-${variant}.png`. `prepare`
 * readies each variant's context first (signs in, starts a challenge). Answers the serious or critical
 * findings as "variant view: rule".
 */
export async function checkPageVariants(options: {
  browser: Browser;
  shots: string;
  prefix: string;
  views: readonly { name: string; url: string }[];
  prepare: (context: BrowserContext) => Promise<void>;
}): Promise<string[]> {
  const found: string[] = [];
  for (const variant of PAGE_VARIANTS) {
    // axe is injected as a script of the test's own: the pages' policy rightly refuses it otherwise.
    const { name, axe, ...contextOptions } = variant;
    const context = await options.browser.newContext({ bypassCSP: true, ...contextOptions });
    await options.prepare(context);
    for (const view of options.views) {
      const page = await context.newPage();
      await page.goto(view.url);
      await page.locator("html[data-hydrated]").waitFor();
      const violations = axe ? await seriousAxeViolations(page) : [];
      for (const id of violations) found.push(`${name} ${view.name}: ${id}`);
      await shoot(page, {
        path: join(options.shots, `${options.prefix}-${view.name}-${name}.png`),
        fullPage: true,
      });
      await page.close();
    }
    await context.close();
  }
  return found;
}

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

/**
 * Add a passkey to the signed-in user through the API, as passkeyClient's addPasskey does:
 * generate-register-options, navigator.credentials.create() (the virtual authenticator answers), then
 * verify-registration. Runs in the page, so the ceremony's origin is the pages' own.
 */
export function registerPasskeyInPage(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const bytes = (text: string) =>
      Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));
    const text = (buffer: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    const options = await (await fetch("/api/auth/passkey/generate-register-options")).json();
    const created = (await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: bytes(options.challenge),
        user: { ...options.user, id: bytes(options.user.id) },
        excludeCredentials: [],
      },
    })) as PublicKeyCredential;
    const answer = created.response as AuthenticatorAttestationResponse;
    const response = {
      id: created.id,
      rawId: text(created.rawId),
      type: created.type,
      response: {
        clientDataJSON: text(answer.clientDataJSON),
        attestationObject: text(answer.attestationObject),
        transports: answer.getTransports(),
      },
      clientExtensionResults: {},
    };
    const verified = await fetch("/api/auth/passkey/verify-registration", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ response, name: "virtual laptop" }),
    });
    await verified.text();
    return verified.status;
  });
}
