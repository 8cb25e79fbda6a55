import { expect, it } from "vitest";
import { describeEachDialect, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedCode, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { browse, formTokenOf, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// Magic links and email codes through the pages: the sign-in page's buttons post to page routes calling the
// same services as the API; a mailed sign-in link opened by a browser consumes nothing until Continue.

const FOREIGN = { origin: "https://evil.example.net" };
const hasSessionCookie = (jar: Map<string, string>) => [...jar.keys()].some((name) => name.endsWith("session_token"));

async function sessionCount(t: TestContext, email: string): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select("session.id")
    .where("user.email", "=", email)
    .execute();
  return rows.length;
}

describeEachDialect("magic link and email code on the pages", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext(
    { dialect, env: { AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" } },
    (ready) => ({ t, mailbox } = ready),
  );

  async function askForLink(email: string, redirect?: string) {
    const browser = t.agent();
    const path = redirect ? `/sign-in?redirect=${encodeURIComponent(redirect)}` : "/sign-in";
    const fields = await pageForm(browser, `/account${path}`);
    const sent = await postForm(browser, "/account/magic-link", { ...fields, identifier: email });
    return { browser, sent };
  }

  it("offers both buttons on the sign-in page, posting the typed address to their routes", async () => {
    const page = await browse(t.agent(), "/account/sign-in");
    expect(page.text).toMatch(/formaction="\/account\/magic-link"/i);
    expect(page.text).toMatch(/formaction="\/account\/email-code\/send"/i);
  });

  it("mails a link and answers known and unknown addresses alike", async () => {
    const known = `known-${crypto.randomUUID()}@example.com`;
    await t.agent().post("/sign-up/email", { email: known, password: "password123", name: "K" });
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    const a = await askForLink(known);
    const b = await askForLink(unknown);
    for (const { sent } of [a, b]) {
      expect(sent.status).toBe(303);
      expect(sent.headers.get("location")).toBe("/account/check-mail?kind=magic-link");
    }
    const link = await mailedLink(mailbox, known, "magicLink");
    expect(link.searchParams.get("errorCallbackURL")).toBe("http://localhost:3000/account/error");
    const page = await browse(a.browser, "/account/check-mail?kind=magic-link");
    expect(page.text).toContain("If this address can sign in");
  });

  it("a browser's GET of the link consumes nothing; Continue signs in once, and a replay fails", async () => {
    const email = `link-${crypto.randomUUID()}@example.com`;
    const { browser } = await askForLink(email, "http://localhost:3000/dashboard");
    const link = await mailedLink(mailbox, email, "magicLink");
    // A scanner: follows the link and the landing, consumes nothing.
    const scanner = t.agent();
    const opened = await browse(scanner, pathOf(link));
    expect(opened.status).toBe(303);
    const landing = opened.headers.get("location") as string;
    expect(landing).toMatch(/^\/account\/magic-link\/verify\?token=/);
    const page = await browse(scanner, landing);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Press Continue");
    expect(hasSessionCookie(scanner.jar)).toBe(false);
    expect(await sessionCount(t, email)).toBe(0);

    const fields = await pageForm(browser, landing);
    const continued = await postForm(browser, "/account/magic-link/verify", fields);
    expect(continued.status).toBe(303);
    expect(continued.headers.get("location")).toBe("http://localhost:3000/dashboard");
    expect(hasSessionCookie(browser.jar)).toBe(true);
    expect(await sessionCount(t, email)).toBe(1);

    const attacker = t.agent();
    const replay = await postForm(attacker, "/account/magic-link/verify", {
      ...fields,
      csrf: await formTokenOf(attacker, "/sign-in"),
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("http://localhost:3000/account/error?error=INVALID_TOKEN");
    expect(await sessionCount(t, email)).toBe(1);
  });

  it("ends a link mailed without a callbackURL on a page, not the daemon's bare home", async () => {
    const email = `bare-${crypto.randomUUID()}@example.com`;
    await t.agent().post("/sign-in/magic-link", { email });
    const link = await mailedLink(mailbox, email, "magicLink");
    const browser = t.agent();
    const landing = (await browse(browser, pathOf(link))).headers.get("location") as string;
    const continued = await postForm(browser, "/account/magic-link/verify", await pageForm(browser, landing));
    expect(continued.status).toBe(303);
    expect(continued.headers.get("location")).toBe("http://localhost:3000/account/sign-in");
    const signedIn = await browse(browser, "/account/sign-in");
    expect(signedIn.text).toContain(`Signed in as ${email}`);
  });

  it("keeps the spec's answer for API clients following the link", async () => {
    const email = `api-${crypto.randomUUID()}@example.com`;
    await t.agent().post("/sign-in/magic-link", { email, callbackURL: "/welcome" });
    const link = await mailedLink(mailbox, email, "magicLink");
    const api = await t.agent().get(pathOf(link), { headers: { accept: "*/*" } });
    expect(api.status).toBe(302);
    expect(api.headers.get("location")).toBe("http://localhost:3000/welcome");
  });

  it("refuses forged and foreign posts, and untrusted targets, without consuming the link", async () => {
    const email = `forged-${crypto.randomUUID()}@example.com`;
    await t.agent().post("/sign-in/magic-link", { email });
    const link = await mailedLink(mailbox, email, "magicLink");
    const browser = t.agent();
    const landing = (await browse(browser, pathOf(link))).headers.get("location") as string;
    const fields = await pageForm(browser, landing);
    const noToken = await postForm(browser, "/account/magic-link/verify", { ...fields, csrf: "" });
    expect(noToken.status).toBe(403);
    const foreign = await postForm(browser, "/account/magic-link/verify", fields, FOREIGN);
    expect(foreign.status).toBe(403);
    const evil = await postForm(browser, "/account/magic-link/verify", {
      ...fields,
      callbackURL: "https://evil.example",
    });
    expect(evil.status).toBe(403);
    for (const target of ["//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const page = await browse(
        t.agent(),
        `/account/magic-link/verify?token=x&callbackURL=${encodeURIComponent(target)}`,
      );
      expect(page.status).toBe(403);
    }
    expect(await sessionCount(t, email)).toBe(0);
    const ok = await postForm(browser, "/account/magic-link/verify", fields);
    expect(ok.status).toBe(303);
    expect(await sessionCount(t, email)).toBe(1);
    // Sending a link: forged and foreign posts mail nothing.
    const other = `other-${crypto.randomUUID()}@example.com`;
    const form = await pageForm(browser, "/account/sign-in");
    expect((await postForm(browser, "/account/magic-link", { identifier: other })).status).toBe(403);
    expect((await postForm(browser, "/account/magic-link", { ...form, identifier: other }, FOREIGN)).status).toBe(403);
    await t.ctx.settle();
    expect(mailCount(mailbox, other)).toBe(0);
  });

  it("shows HTML in a reflected address as text", async () => {
    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-in");
    const html = `<img src=x onerror=alert(1)>@example.com`;
    const sent = await postForm(browser, "/account/magic-link", { ...fields, identifier: html });
    expect(sent.status).toBe(400);
    expect(sent.text).not.toContain("<img src=x");
    const code = await postForm(browser, "/account/email-code/send", { ...fields, identifier: html });
    expect(code.status).toBe(400);
    expect(code.text).not.toContain("<img src=x");
    // The code page takes its address from the signed cookie the send sets, never from the URL.
    const forged = await browse(browser, `/account/email-code?email=${encodeURIComponent(html)}`);
    expect(forged.status).toBe(303);
    expect(forged.text).not.toContain("<img src=x");
  });

  it("signs in with a mailed code typed into the code page", async () => {
    const email = `code-${crypto.randomUUID()}@example.com`;
    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-in?redirect=%2Fhome");
    const sent = await postForm(browser, "/account/email-code/send", { ...fields, identifier: email });
    expect(sent.status).toBe(303);
    const codePath = sent.headers.get("location") as string;
    expect(codePath).toBe("/account/email-code?redirect=%2Fhome");
    expect(sent.setCookies.some((line) => line.includes("page_code_email="))).toBe(true);
    const page = await browse(browser, codePath);
    expect(page.text).toMatch(/autocomplete="one-time-code"/i);
    expect(page.text).toMatch(/inputmode="numeric"/i);
    const code = await mailedCode(mailbox, email, "sign-in");
    const form = hiddenFields(page.text);
    const wrong = await postForm(browser, "/account/email-code", {
      ...form,
      otp: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("This code is not right");
    const right = await postForm(browser, "/account/email-code", { ...form, otp: code });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/home");
    expect(hasSessionCookie(browser.jar)).toBe(true);
    const attacker = t.agent();
    const again = await postForm(attacker, "/account/email-code", {
      ...form,
      csrf: await formTokenOf(attacker, "/sign-in"),
      otp: code,
    });
    expect(again.status).toBe(400);
  });

  it("refuses forged and foreign code posts, and answers a code request alike for any address", async () => {
    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-in");
    const known = `known-code-${crypto.randomUUID()}@example.com`;
    await t.agent().post("/sign-up/email", { email: known, password: "password123", name: "K" });
    const a = await postForm(browser, "/account/email-code/send", { ...fields, identifier: known });
    const b = await postForm(browser, "/account/email-code/send", { ...fields, identifier: `x-${known}` });
    expect([a.status, b.status]).toEqual([303, 303]);
    const code = await mailedCode(mailbox, known, "sign-in");
    const form = { csrf: fields.csrf, email: known, otp: code };
    expect((await postForm(browser, "/account/email-code", { ...form, csrf: "" })).status).toBe(403);
    expect((await postForm(browser, "/account/email-code", form, FOREIGN)).status).toBe(403);
    expect(await sessionCount(t, known)).toBe(1); // the sign-up's own
    expect((await postForm(browser, "/account/email-code", form)).status).toBe(303);
  });
});

describeEachDialect("passwordless pages when the features are off", (dialect) => {
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t } = ready));

  it("shows no buttons and refuses the routes", async () => {
    const browser = t.agent();
    const page = await browse(browser, "/account/sign-in");
    expect(page.text).not.toMatch(/formaction=/i);
    const fields = hiddenFields(page.text);
    expect((await postForm(browser, "/account/magic-link", { ...fields, identifier: "a@example.com" })).status).toBe(
      404,
    );
    expect(
      (await postForm(browser, "/account/email-code/send", { ...fields, identifier: "a@example.com" })).status,
    ).toBe(404);
  });
});
