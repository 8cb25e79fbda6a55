import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, consoleProblems, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { LiveAgent, uniqueEmail } from "../helpers/live-agent.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { photographEveryVariant, withCookies } from "../helpers/page-variants.ts";

// The invitation page in headless Chromium, served by the compiled binary: an invitation made through the
// API, opened signed out, answered after signing up through the pages (which bring the browser back to it),
// with JavaScript on and off; axe on the page signed out and signed in. Screenshots go to test-artifacts/pages/.

const INVITATION_LINK = /http:\/\/\S+\/account\/invitation\/[A-Za-z0-9]+/;
const VERIFY_LINK = /http:\/\/\S+\/api\/auth\/verify-email\?token=\S+/;
const SHOTS = join(ARTIFACTS_DIR, "pages");

let daemon: Daemon;
let mailbox: Mailbox;
let browser: Browser;

beforeAll(async () => {
  mailbox = await startMailbox();
  daemon = await startDaemon([buildBinary()], { AUTH_SMTP_URL: mailbox.url, AUTH_RATE_LIMIT: "off" });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await mailbox?.close();
});

/** An owner (through the API) with an organization, inviting `email`; answers the mailed link and the owner. */
async function invitationTo(email: string, organizationName: string) {
  const owner = new LiveAgent(daemon.url, daemon.url);
  const ownerEmail = uniqueEmail("owner");
  const signedUp = await owner.post("/sign-up/email", {
    name: "Owner",
    email: ownerEmail,
    password: "owner-password-1",
  });
  expect(signedUp.status, signedUp.text).toBe(200);
  const slug = `org-${Math.random().toString(36).slice(2, 10)}`;
  const created = await owner.post("/organization/create", { name: organizationName, slug });
  expect(created.status, created.text).toBe(200);
  const invitation = await owner.post("/organization/invite-member", { email, role: "member" });
  expect(invitation.status, invitation.text).toBe(200);
  const mail = await mailbox.waitFor(email, INVITATION_LINK);
  return { owner, ownerEmail, link: mail.match[0], organizationId: (created.json as { id: string }).id };
}

async function whenReady(page: Page, javaScript: boolean) {
  if (javaScript) await page.locator("html[data-hydrated]").waitFor();
}

for (const javaScript of [true, false]) {
  describe(`the invitation page with JavaScript ${javaScript ? "on" : "off"}`, () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ javaScriptEnabled: javaScript });
    });
    afterAll(() => context?.close());

    it("opened signed out: sign up through the pages, confirm the address, come back, accept, be a member", async () => {
      const email = uniqueEmail(javaScript ? "invitee-js" : "invitee-nojs");
      const { owner, ownerEmail, link, organizationId } = await invitationTo(email, "Page Org");
      const page = await context.newPage();
      const problems = consoleProblems(page);
      await page.goto(link);
      await whenReady(page, javaScript);
      await page.getByText("Sign in or create an account to answer this invitation.").waitFor();
      expect(await page.content()).not.toContain("Page Org");
      const here = new URL(link).pathname;

      await page.getByRole("link", { name: "Create account" }).click();
      await page.waitForURL(`${daemon.url}/account/sign-up?redirect=${encodeURIComponent(here)}`);
      await whenReady(page, javaScript);
      await page.getByLabel("Name", { exact: true }).fill("Invited Person");
      await page.getByLabel("Email address", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill("invitee-password-1");
      const since = Date.now();
      await page.getByRole("button", { name: "Create account" }).click();

      // Back on the invitation, signed in; the address is not confirmed yet, so the API shows nothing more.
      await page.waitForURL(`${daemon.url}${here}`);
      await page.getByText("Confirm your email address first", { exact: false }).waitFor();
      expect(await page.content()).not.toContain("Page Org");

      const verification = await mailbox.waitFor(email, VERIFY_LINK, { since });
      await page.goto(verification.match[0]);
      await page.waitForURL(/\/account\/verify-email\?/);
      await whenReady(page, javaScript);
      await page.getByRole("button", { name: "Confirm my address" }).click();

      await page.waitForURL(`${daemon.url}${here}`);
      await whenReady(page, javaScript);
      await page.getByText(`${ownerEmail} invited you to join Page Org as member.`).waitFor();
      await shoot(page, { path: join(SHOTS, `invitation-signed-in-js-${javaScript ? "on" : "off"}.png`) });
      const apiCalls: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/auth/organization/accept-invitation")) apiCalls.push(request.url());
      });
      await page.getByRole("button", { name: "Accept invitation" }).click();
      await page.waitForURL(`${daemon.url}/account`);
      expect(apiCalls.length).toBe(javaScript ? 1 : 0);

      const members = await owner.get("/organization/list-members", { organizationId });
      const emails = (members.json as { members: { user: { email: string } }[] }).members.map((m) => m.user.email);
      expect(emails).toContain(email);
      // The unconfirmed address's refusal is drawn with the API's 403: the one load error the console may show.
      expect(problems.filter((problem) => !problem.includes("status of 403"))).toEqual([]);
      await page.close();
    });
  });
}

describe("the invitation page for everyone", () => {
  it("has no serious or critical accessibility violation, signed out and signed in, in every variant", async () => {
    // The invitee, signed up and confirmed through the API; their cookies go into the browser.
    const email = uniqueEmail("axe");
    const invitee = new LiveAgent(daemon.url, daemon.url);
    const since = Date.now();
    expect((await invitee.post("/sign-up/email", { name: "Axe", email, password: "axe-password-12" })).status).toBe(
      200,
    );
    const verification = await mailbox.waitFor(email, VERIFY_LINK, { since });
    const verifyPath = new URL(verification.match[0]);
    await invitee.get(`${verifyPath.pathname.replace("/api/auth", "")}`, Object.fromEntries(verifyPath.searchParams));
    const { link } = await invitationTo(email, "Axe <b>Org</b>");
    const signedOut = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "invitation",
      views: [{ name: "signed-out", url: link }],
    });
    const signedIn = await photographEveryVariant({
      browser,
      shots: SHOTS,
      prefix: "invitation",
      views: [
        {
          name: "signed-in",
          open: async (page) => {
            await page.goto(link);
            expect(await page.locator("main").textContent()).toContain("Axe <b>Org</b>");
          },
        },
      ],
      prepare: withCookies(invitee.jar, daemon.url),
    });
    const found = [...signedOut, ...signedIn];
    expect(found).toEqual([]);
  }, 120_000);
});
