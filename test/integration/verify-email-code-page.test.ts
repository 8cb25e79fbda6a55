import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { CODE_LINE, mailCount, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { browse, formTokenOf, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// Issue 28/31: while email codes are on, the verification mail carries a code beside its link, and the pages
// take it at /account/verify-email/code (the same service as POST /email-otp/verify-email), for a person who
// opens the mail on another device or whose link a scanner spent.

async function isVerified(t: TestContext, email: string): Promise<boolean> {
  const row = await t.ctx.db.selectFrom("user").select("emailVerified").where("email", "=", email).executeTakeFirst();
  return Boolean(row?.emailVerified);
}

const FOREIGN = { origin: "https://evil.example.net" };

describe("the verification code on the pages", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext(
    { env: { AUTH_REQUIRE_EMAIL_VERIFICATION: "on", AUTH_EMAIL_OTP: "on" } },
    (ready) => ({ t, mailbox } = ready),
  );

  /** Sign up on the page (no session: the address must be confirmed first); answers the browser and the mailed code. */
  async function signUpOnPage() {
    const browser = t.agent();
    const email = `code.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const fields = await pageForm(browser, "/account/sign-up");
    const posted = await postForm(browser, "/account/sign-up", {
      ...fields,
      name: "Code User",
      email,
      password: "correct-horse-battery",
    });
    expect(posted.headers.get("location")).toBe("/account/check-mail?kind=verify");
    await t.ctx.settle();
    const code = mailbox.to(email).at(-1)?.plain.match(CODE_LINE)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    return { browser, email, code };
  }

  it("leads from the check-mail page to the code page, which knows the address, and the code confirms it", async () => {
    const { browser, email, code } = await signUpOnPage();
    const checkMail = await browse(browser, "/account/check-mail?kind=verify");
    expect(checkMail.text).toContain('href="/account/verify-email/code"');
    const page = await browse(browser, "/account/verify-email/code");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`value="${email}"`);
    expect(page.text).toMatch(/<input[^>]*name="otp"[^>]*autoComplete="one-time-code"|autocomplete="one-time-code"/i);
    expect(await isVerified(t, email)).toBe(false);
    const done = await postForm(browser, "/account/verify-email/code", {
      ...hiddenFields(page.text),
      email,
      otp: code,
    });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/account/verify-email?done=1");
    expect(await isVerified(t, email)).toBe(true);
    // The code is used up: a second post is refused.
    const again = await postForm(browser, "/account/verify-email/code", {
      ...hiddenFields(page.text),
      email,
      otp: code,
    });
    expect(again.status).toBe(400);
  });

  it("attacker: a wrong code is refused beside the field and counted; after the allowed tries the right one fails too", async () => {
    const { browser, email, code } = await signUpOnPage();
    const csrf = await formTokenOf(browser, "/account/verify-email/code");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) {
      const refused = await postForm(browser, "/account/verify-email/code", { csrf, email, otp: wrong });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("This code is not right. Check the mail and try again.");
      expect(refused.text).toMatch(/aria-invalid="true"/);
    }
    const late = await postForm(browser, "/account/verify-email/code", { csrf, email, otp: code });
    expect(late.status).toBe(403);
    expect(await isVerified(t, email)).toBe(false);
  });

  it("attacker: another address's code, a post without the form token, and a foreign Origin verify nothing", async () => {
    const victim = await signUpOnPage();
    const attacker = await signUpOnPage();
    const csrf = await formTokenOf(attacker.browser, "/account/verify-email/code");
    const crossed = await postForm(attacker.browser, "/account/verify-email/code", {
      csrf,
      email: victim.email,
      otp: attacker.code,
    });
    expect(crossed.status).toBe(400);
    const noToken = await postForm(victim.browser, "/account/verify-email/code", {
      email: victim.email,
      otp: victim.code,
    });
    expect(noToken.status).toBe(403);
    const token = await formTokenOf(victim.browser, "/account/verify-email/code");
    const foreign = await postForm(
      victim.browser,
      "/account/verify-email/code",
      { csrf: token, email: victim.email, otp: victim.code },
      FOREIGN,
    );
    expect(foreign.status).toBe(403);
    expect(await isVerified(t, victim.email)).toBe(false);
    // The victim's own code still works once the forgeries are past.
    const own = await postForm(victim.browser, "/account/verify-email/code", {
      csrf: token,
      email: victim.email,
      otp: victim.code,
    });
    expect(own.status).toBe(303);
    expect(await isVerified(t, victim.email)).toBe(true);
  });

  it("shows a reflected address as text", async () => {
    const browser = t.agent();
    const csrf = await formTokenOf(browser, "/account/verify-email/code");
    const hostile = '"><script>alert(1)</script>@example.com';
    const page = await postForm(browser, "/account/verify-email/code", { csrf, email: hostile, otp: "123456" });
    expect(page.status).toBe(400);
    expect(page.text).not.toContain("<script>alert(1)</script>");
    expect(page.text).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com");
    expect(page.text).toContain("Enter a valid email address.");
    expect(mailCount(mailbox, hostile)).toBe(0);
  });
});

describe("the verification code page without email codes", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("is not offered: the check-mail page has no link to it, and the page answers 404", async () => {
    expect((await browse(t.agent(), "/account/check-mail?kind=verify")).text).not.toContain("/verify-email/code");
    expect((await browse(t.agent(), "/account/verify-email/code")).status).toBe(404);
    const csrf = await formTokenOf(t.agent(), "/account/sign-in");
    expect(
      (await postForm(t.agent(), "/account/verify-email/code", { csrf, email: "a@example.com", otp: "1" })).status,
    ).toBe(403);
  });
});
