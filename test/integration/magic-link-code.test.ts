import { describe, expect, it } from "vitest";
import { describeEachDialect, type TestContext } from "../helpers/context.ts";
import { CODE_LINE, mailedLink, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { browse, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// Issue 28: a mailed link that signs in (the magic link) carries its flow's code too while email codes are
// on, so a person can type it where they asked for the link (the link opened on a phone, a scanner that
// spent it). The code is an ordinary sign-in code: the same checks, throttle and single use as one from
// "Email me a code".

const hasSessionCookie = (jar: Map<string, string>) => [...jar.keys()].some((name) => name.endsWith("session_token"));
const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID()}@example.com`;

/** The code in the newest sign-in link's mail to `to` (null when that mail has none), once the link is there. */
async function linkMailCode(mailbox: Mailbox, to: string, skip = 0): Promise<string | null> {
  await mailedLink(mailbox, to, "magicLink", skip);
  const mail = mailbox
    .to(to)
    .filter((m) => m.kind === "magic-link")
    .pop();
  return mail?.plain.match(CODE_LINE)?.[1] ?? null;
}

describeEachDialect("the sign-in link's mail carries a sign-in code", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect, env: { AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" } }, (r) => ({ t, mailbox } = r));

  it("typed on the code page the check-mail page links to, it signs this browser in", async () => {
    const email = uniqueEmail("link-code");
    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-in?redirect=%2Fhome");
    const sent = await postForm(browser, "/account/magic-link", { ...fields, identifier: email });
    expect(sent.headers.get("location")).toBe("/account/check-mail?kind=magic-link&redirect=%2Fhome");
    const checkMail = await browse(browser, sent.headers.get("location") as string);
    expect(checkMail.text).toContain('href="/account/email-code?redirect=%2Fhome"');

    const code = await linkMailCode(mailbox, email);
    expect(code).toMatch(/^\d{6}$/);
    const page = await browse(browser, "/account/email-code?redirect=%2Fhome");
    expect(page.status).toBe(200);
    const form = hiddenFields(page.text);
    expect(form.email).toBe(email);
    const signedIn = await postForm(browser, "/account/email-code", { ...form, otp: code as string });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/home");
    expect(hasSessionCookie(browser.jar)).toBe(true);
    // Used once: the same code again signs no one in.
    const replay = t.agent();
    const again = await postForm(replay, "/account/email-code", {
      ...(await pageForm(replay, "/account/sign-in")),
      email,
      otp: code as string,
    });
    expect(again.status).toBe(400);
    expect(hasSessionCookie(replay.jar)).toBe(false);
  });

  it("is the API's sign-in code too: an app's link request gets one POST /sign-in/email-otp takes", async () => {
    const email = uniqueEmail("api-link-code");
    expect((await t.agent().post("/sign-in/magic-link", { email })).status).toBe(200);
    const code = (await linkMailCode(mailbox, email)) as string;
    const app = t.agent();
    // Another address's code is no good for this one.
    const other = uniqueEmail("other");
    expect((await app.post("/sign-in/email-otp", { email: other, otp: code })).status).toBe(400);
    const signedIn = await app.post("/sign-in/email-otp", { email, otp: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(email);
  });

  it("is replaced by the next link's code, as by the next code asked for", async () => {
    const email = uniqueEmail("replaced");
    await t.agent().post("/sign-in/magic-link", { email });
    const first = (await linkMailCode(mailbox, email)) as string;
    const seen = mailbox.to(email).length;
    await t.agent().post("/sign-in/magic-link", { email });
    const second = (await linkMailCode(mailbox, email, seen)) as string;
    if (first !== second) expect((await t.agent().post("/sign-in/email-otp", { email, otp: first })).status).toBe(400);
    expect((await t.agent().post("/sign-in/email-otp", { email, otp: second })).status).toBe(200);
  });
});

describe("the sign-in link's mail while email codes are off", () => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ env: { AUTH_MAGIC_LINK: "on" } }, (r) => ({ t, mailbox } = r));

  it("carries the link alone, and the check-mail page offers no code page", async () => {
    const email = uniqueEmail("no-codes");
    const browser = t.agent();
    const sent = await postForm(browser, "/account/magic-link", {
      ...(await pageForm(browser, "/account/sign-in")),
      identifier: email,
    });
    expect(sent.status).toBe(303);
    expect(sent.setCookies.some((line) => line.includes("page_code_email="))).toBe(false);
    expect((await browse(browser, "/account/check-mail?kind=magic-link")).text).not.toContain("/email-code");
    expect(await linkMailCode(mailbox, email)).toBeNull();
  });
});

describe("the sign-in link's mail while sign-up by code is off", () => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext(
    { env: { AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" }, config: { emailOTP: { disableSignUp: true } } },
    (r) => ({ t, mailbox } = r),
  );

  it("carries a code to a known address only: the link may sign a new address up, a code could not", async () => {
    const known = uniqueEmail("known");
    expect((await t.agent().post("/sign-up/email", { email: known, password: "password123", name: "K" })).status).toBe(
      200,
    );
    await t.agent().post("/sign-in/magic-link", { email: known });
    expect(await linkMailCode(mailbox, known)).toMatch(/^\d{6}$/);
    const stranger = uniqueEmail("stranger");
    await t.agent().post("/sign-in/magic-link", { email: stranger });
    expect(await linkMailCode(mailbox, stranger)).toBeNull();
  });
});
