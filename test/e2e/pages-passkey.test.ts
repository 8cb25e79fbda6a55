import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import {
  ARTIFACTS_DIR,
  addVirtualAuthenticator,
  launchChromium,
  registerPasskeyInPage,
  shoot,
} from "../helpers/browser.ts";
import { type Daemon, startOnLocalhost } from "../helpers/daemon.ts";
import { collectProblems } from "../helpers/example-app.ts";
import { photographEveryVariant } from "../helpers/page-variants.ts";

// The sign-in page's passkeys in headless Chromium, against the compiled binary: a DevTools virtual
// authenticator holds the passkey a user registered through the API (from the page's own origin, as an
// app would), and the page's "Sign in with a passkey" button signs them in with it alone. The daemon's base
// URL is on localhost, the one host name Chromium accepts as an rp id over plain http; by default its
// origin is the relying party's, so nothing else is configured. Without JavaScript the page offers no
// passkey and signs in with a password as before.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const PASSWORD = "correct-horse-battery";

let daemon: Daemon;
let base: string;
let browser: Browser;

beforeAll(async () => {
  ({ daemon, base } = await startOnLocalhost([buildBinary()], { AUTH_RATE_LIMIT: "off" }));
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

const uniqueEmail = (label: string) =>
  `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** Sign up through the API from the page's origin (the browser keeps the session cookie). */
async function signUp(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/account/sign-up`);
  // Each answer's body is read to its end: one left unread is cancelled by the next navigation.
  const status = await page.evaluate(
    async ([email, password]) => {
      const answer = await fetch("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Passkey Person", email, password }),
      });
      await answer.text();
      return answer.status;
    },
    [email, PASSWORD],
  );
  expect(status).toBe(200);
}

async function sessionEmail(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const session = await (await fetch("/api/auth/get-session")).json();
    return session?.user?.email ?? null;
  });
}

/** A user with a passkey in a fresh page's virtual authenticator, signed out. */
async function userWithPasskey(label: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const email = uniqueEmail(label);
  await signUp(page, email);
  expect(await registerPasskeyInPage(page)).toBe(200);
  expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
  await context.clearCookies();
  return { context, page, email };
}

/** A browser without passkey autofill: the page then offers the button alone. */
const withoutAutofill = (page: Page) =>
  page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
  });

describe("the sign-in page's passkeys in headless Chromium", () => {
  it("signs in with the passkey button alone, then says so in place when the passkey is unknown", async () => {
    const { context, page, email } = await userWithPasskey("page-passkey");
    await withoutAutofill(page);

    // When they open the sign-in page with a return address and press the passkey button
    const problems = collectProblems(page);
    const target = `${base}/api/auth/ok`;
    await page.goto(`${base}/account/sign-in?redirect=${encodeURIComponent(target)}`);
    await page.locator("html[data-hydrated]").waitFor();
    const button = page.getByRole("button", { name: "Sign in with a passkey" });
    await button.waitFor();
    await shoot(page, { path: join(SHOTS, "sign-in-passkey-light-desktop-en.png"), fullPage: true });
    await button.click();

    // Then they are back at the return address, signed in as themselves, with no second step
    await page.waitForURL(target);
    expect(await sessionEmail(page)).toBe(email);
    expect(problems).toEqual([]);

    // And a passkey the server no longer knows is refused in place, in the page's language
    const passkeys = await page.evaluate(async () => (await fetch("/api/auth/passkey/list-user-passkeys")).json());
    const removed = await page.evaluate(async (id) => {
      const answer = await fetch("/api/auth/passkey/delete-passkey", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id }),
      });
      await answer.text();
      return answer.status;
    }, passkeys[0].id as string);
    expect(removed).toBe(200);
    await context.clearCookies();
    await page.setExtraHTTPHeaders({ "accept-language": "de" });
    await page.goto(`${base}/account/sign-in`);
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByRole("button", { name: "Mit einem Passkey anmelden" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toBe("Dieser Passkey ist hier nicht bekannt; vielleicht wurde er entfernt. Melden Sie sich auf anderem Weg an.");
    expect(await sessionEmail(page)).toBeNull();
    await context.close();
  }, 60_000);

  it("signs in from the identifier field's autofill (conditional mediation), without a click", async () => {
    // The virtual authenticator picks the one passkey as soon as the page asks, as a person picking it
    // from the identifier field's suggestions would.
    const { context, page, email } = await userWithPasskey("page-passkey-autofill");
    const target = `${base}/api/auth/ok`;
    const verifies: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/passkey/verify-authentication")) verifies.push(request.method());
    });
    await page.goto(`${base}/account/sign-in?redirect=${encodeURIComponent(target)}`);
    await page.waitForURL(target);
    expect(verifies).toEqual(["POST"]);
    expect(await sessionEmail(page)).toBe(email);
    await context.close();
  }, 60_000);

  it("without JavaScript offers no passkey and signs in with the password", async () => {
    const setup = await browser.newContext();
    const email = uniqueEmail("page-passkey-nojs");
    await signUp(await setup.newPage(), email);
    await setup.close();

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/account/sign-in`);
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).count()).toBe(0);
    expect(await page.getByRole("button").allTextContents()).toEqual(["Sign in"]);
    await page.getByLabel("Email address or username", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/account`);
    await page.goto(`${base}/account/sign-in`);
    await page.getByText(`Signed in as ${email}.`).waitFor();
    await context.close();
  }, 60_000);

  it("draws the page with the passkey button in all eight variants, with no serious or critical accessibility violation", async () => {
    const found = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "sign-in",
      views: [
        {
          name: "passkey",
          open: async (page) => {
            await page.goto(`${base}/account/sign-in`);
            await page.locator("html[data-hydrated]").waitFor();
            await page.locator("button.authd-passkey").waitFor();
          },
        },
      ],
    });
    expect(found).toEqual([]);
  }, 120_000);
});
