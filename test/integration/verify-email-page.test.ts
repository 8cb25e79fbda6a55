import { expect, it } from "vitest";
import { createEmailVerificationToken } from "../../src/services/email-verification.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { browse, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// A verification or email-change link opened by a browser (Accept naming text/html) lands on a page that
// consumes nothing; only its Continue button's post verifies. API clients keep the spec's answers.

async function isVerified(t: TestContext, email: string): Promise<boolean> {
  const row = await t.ctx.db.selectFrom("user").select("emailVerified").where("email", "=", email).executeTakeFirst();
  return Boolean(row?.emailVerified);
}

async function sessionCount(t: TestContext, email: string): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select("session.id")
    .where("user.email", "=", email)
    .execute();
  return rows.length;
}

const hasSessionCookie = (jar: Map<string, string>) => [...jar.keys()].some((name) => name.endsWith("session_token"));

describeEachDialect("verify-email links opened in a browser", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  async function signedUpWithLink(callbackURL?: string) {
    const account = await signUp(t, callbackURL ? { callbackURL } : {});
    return { ...account, link: await mailedLink(mailbox, account.email, "verify") };
  }

  it("sends a browser's GET to the Continue page and consumes nothing: the token works afterwards", async () => {
    const { email, link } = await signedUpWithLink("/welcome");
    const browser = t.agent();
    const opened = await browse(browser, pathOf(link));
    expect(opened.status).toBe(303);
    const location = new URL(opened.headers.get("location") as string, "http://localhost:3000");
    expect(location.pathname).toBe("/account/verify-email");
    expect(location.searchParams.get("token")).toBe(link.searchParams.get("token"));
    expect(location.searchParams.get("redirect")).toBe("/welcome");
    expect(location.searchParams.has("callbackURL")).toBe(false);
    expect(hasSessionCookie(browser.jar)).toBe(false);

    // A scanner that follows the redirect too only reads the page.
    const page = await browse(browser, `${location.pathname}${location.search}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/account/verify-email?redirect=%2Fwelcome"');
    expect(hiddenFields(page.text)).toMatchObject({ token: link.searchParams.get("token"), redirect: "/welcome" });
    expect(await isVerified(t, email)).toBe(false);

    // A HEAD (a link checker's look) consumes nothing either, whatever it accepts.
    const head = await t.agent().request("HEAD", pathOf(link), undefined, { headers: { accept: "*/*" } });
    expect(head.status).toBe(303);
    expect(await isVerified(t, email)).toBe(false);

    // The same link, followed by an API client, still does what the spec says.
    const api = await t.agent().get(pathOf(link), { headers: { accept: "*/*" } });
    expect(api.status).toBe(302);
    expect(api.headers.get("location")).toBe("/welcome");
    expect(await isVerified(t, email)).toBe(true);
  });

  it("verifies on the page's post and sends the browser on to the callback", async () => {
    const { email, link } = await signedUpWithLink("/welcome");
    const browser = t.agent();
    const landing = (await browse(browser, pathOf(link))).headers.get("location") as string;
    const fields = await pageForm(browser, landing);
    const posted = await postForm(browser, "/account/verify-email", fields);
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/welcome");
    expect(await isVerified(t, email)).toBe(true);
    // Auto sign-in is off here: the post opens no session.
    expect(hasSessionCookie(browser.jar)).toBe(false);
    expect(await sessionCount(t, email)).toBe(1);
  });

  it("ends on the confirmed page when the link has no callbackURL", async () => {
    const { email } = await signUp(t);
    const token = await createEmailVerificationToken(t.ctx, { email });
    const browser = t.agent();
    const opened = await browse(browser, `/api/auth/verify-email?token=${token}`);
    expect(opened.headers.get("location")).toBe(`/account/verify-email?token=${token}`);
    const posted = await postForm(
      browser,
      "/account/verify-email",
      await pageForm(browser, `/account/verify-email?token=${token}`),
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/account/verify-email?done=1");
    const done = await browse(browser, "/account/verify-email?done=1");
    expect(done.text).toContain("Your address is confirmed.");
    expect(await isVerified(t, email)).toBe(true);
  });

  it("carries a callbackURL the API trusts but the pages would not take as a return address", async () => {
    const { email } = await signUp(t);
    const token = await createEmailVerificationToken(t.ctx, { email });
    const callbackURL = "http://someone@localhost:3000/after";
    const browser = t.agent();
    const opened = await browse(
      browser,
      `/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL)}`,
    );
    const location = new URL(opened.headers.get("location") as string, "http://localhost:3000");
    expect(location.searchParams.get("redirect")).toBeNull();
    expect(location.searchParams.get("callbackURL")).toBe(callbackURL);
    const fields = await pageForm(browser, `${location.pathname}${location.search}`);
    expect(fields.callbackURL).toBe(callbackURL);
    const posted = await postForm(browser, "/account/verify-email", fields);
    expect(posted.headers.get("location")).toBe(callbackURL);
    expect(await isVerified(t, email)).toBe(true);

    // A page URL naming an untrusted callbackURL is not followed.
    const other = await signUp(t);
    const otherToken = await createEmailVerificationToken(t.ctx, { email: other.email });
    const evil = await pageForm(
      browser,
      `/account/verify-email?token=${otherToken}&callbackURL=${encodeURIComponent("https://evil.example.net/")}`,
    );
    expect(evil.callbackURL).toBeUndefined();
    const forged = await postForm(browser, "/account/verify-email", {
      ...evil,
      callbackURL: "https://evil.example.net/",
    });
    expect(forged.headers.get("location")).toBe("/account/verify-email?done=1");
  });

  it("refuses a post without the form token or from a foreign origin, and consumes nothing", async () => {
    const { email, link } = await signedUpWithLink("/welcome");
    const browser = t.agent();
    const fields = await pageForm(browser, (await browse(browser, pathOf(link))).headers.get("location") as string);

    const noToken = await postForm(browser, "/account/verify-email", { ...fields, csrf: "" });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain("CSRF");
    const wrongToken = await postForm(t.agent(), "/account/verify-email", fields);
    expect(wrongToken.status).toBe(403);
    const foreign = await postForm(browser, "/account/verify-email", fields, { origin: "https://evil.example.net" });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain("ORIGIN");
    expect(await isVerified(t, email)).toBe(false);

    expect((await postForm(browser, "/account/verify-email", fields)).status).toBe(303);
    expect(await isVerified(t, email)).toBe(true);
  });

  it("shows an expired or broken link as the error page, on the GET already", async () => {
    const { email } = await signUp(t);
    const expired = await createEmailVerificationToken(t.ctx, { email }, -10);
    const page = await browse(t.agent(), `/account/verify-email?token=${expired}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain("This link has expired.");
    expect(page.text).toContain("token_expired");

    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-in");
    const posted = await postForm(browser, "/account/verify-email", { ...fields, token: "not-a-jwt" });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain("invalid_token");
  });

  it("answers API clients as before: JSON without a callbackURL, whatever JSON Accept they send", async () => {
    const { email } = await signUp(t);
    const token = await createEmailVerificationToken(t.ctx, { email });
    const res = await t
      .agent()
      .get(`/api/auth/verify-email?token=${token}`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, user: null });
    expect(await isVerified(t, email)).toBe(true);
  });

  it("confirms an email change from the page, for the signed-in owner only, once", async () => {
    const { agent, email } = await signUp(t);
    await agent.get(`/verify-email?token=${await createEmailVerificationToken(t.ctx, { email })}`);
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const newEmail = `moved.${Math.random().toString(36).slice(2, 8)}@example.com`;
    expect((await agent.post("/change-email", { newEmail, callbackURL: "/moved" })).status).toBe(200);
    const link = await mailedLink(mailbox, email, "verify", seen);

    const landing = (await browse(agent, pathOf(link))).headers.get("location") as string;
    expect(landing).toMatch(/^\/account\/verify-email\?token=/);
    const page = await browse(agent, landing);
    expect(page.text).toContain("approve the new email address");
    const row = () => t.ctx.db.selectFrom("user").select("email").where("email", "=", newEmail).executeTakeFirst();
    expect(await row()).toBeUndefined();

    // Someone else's browser (signed out) cannot confirm it.
    const stranger = t.agent();
    const strangerFields = await pageForm(stranger, landing);
    const refused = await postForm(stranger, "/account/verify-email", strangerFields);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("unauthorized");
    expect(await row()).toBeUndefined();

    const fields = hiddenFields(page.text);
    const posted = await postForm(agent, "/account/verify-email", fields);
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/moved");
    expect(await row()).toBeDefined();
    const session = await agent.get("/get-session");
    expect(session.body.user.email).toBe(newEmail);

    // The same token again: its address is gone.
    const replay = await postForm(agent, "/account/verify-email", fields);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain("user_not_found");
  });
});

describeEachDialect("verify-email page with auto sign-in after verification", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  const options = {
    dialect,
    env: { AUTH_REQUIRE_EMAIL_VERIFICATION: "on" },
    config: { emailVerification: { autoSignInAfterVerification: true } },
  };
  useMailContext(options, (ready) => ({ t, mailbox } = ready));

  it("signs the browser in on the post, once: a replayed token signs no one in", async () => {
    const email = `auto.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const signedUp = await t.agent().post("/sign-up/email", { name: "A", email, password: "correct-horse-battery" });
    expect(signedUp.body.token).toBeNull();
    const link = await mailedLink(mailbox, email, "verify");

    // A scanner's GET signs nobody in.
    const scanner = t.agent();
    await browse(scanner, pathOf(link));
    expect(hasSessionCookie(scanner.jar)).toBe(false);
    expect(await sessionCount(t, email)).toBe(0);

    const browser = t.agent();
    const fields = await pageForm(browser, (await browse(browser, pathOf(link))).headers.get("location") as string);
    const posted = await postForm(browser, "/account/verify-email", fields);
    expect(posted.status).toBe(303);
    expect(hasSessionCookie(browser.jar)).toBe(true);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email, emailVerified: true });

    const replay = t.agent();
    const again = await postForm(
      replay,
      "/account/verify-email",
      await pageForm(replay, `/account/verify-email?token=${fields.token}`),
    );
    expect(again.status).toBe(303);
    expect(hasSessionCookie(replay.jar)).toBe(false);
    expect(await sessionCount(t, email)).toBe(1);
  });
});

describeEachDialect("verify-email links with the pages off", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect, env: { AUTH_PAGES: "off" } }, (ready) => ({ t, mailbox } = ready));

  it("consumes the token on a browser's GET, as the API always did", async () => {
    const { email } = await signUp(t, { callbackURL: "/welcome" });
    const link = await mailedLink(mailbox, email, "verify");
    const opened = await browse(t.agent(), pathOf(link));
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/welcome");
    expect(await isVerified(t, email)).toBe(true);
    expect((await browse(t.agent(), "/account/verify-email")).status).toBe(404);
  });
});
