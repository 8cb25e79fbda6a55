import { describe, expect, it } from "vitest";
import type { TestContext } from "../helpers/context.ts";
import { CODE_LINE, mailCount, useMailContext } from "../helpers/mail-links.ts";
import type { CapturedMail, Mailbox } from "../helpers/mailbox.ts";
import { ownerWithOrganization } from "../helpers/organization.ts";
import { pageForm, postForm } from "../helpers/pages.ts";

// Issue 31, through the real SMTP capture: a sign-up in German gets its mail in German, both parts, and the
// HTML part is safe for mail clients (no script, nothing loaded from elsewhere but the operator's logo).

const LOGO = "https://cdn.example.com/acme-logo.png";

/** Every URL the HTML part would make a mail client load by itself (not the links a person may follow). */
function loadedResources(html: string): string[] {
  const sources = [...html.matchAll(/<(?:img|script|iframe|embed|source|video|audio|input)\b[^>]*\ssrc="([^"]*)"/gi)];
  const links = [...html.matchAll(/<link\b[^>]*href="([^"]*)"/gi)];
  const css = [...html.matchAll(/url\(([^)]*)\)|@import\s+['"]?([^'";\s]+)/gi)];
  const backgrounds = [...html.matchAll(/\sbackground="([^"]*)"/gi)];
  return [...sources, ...links, ...backgrounds].map((m) => m[1] as string).concat(css.map((m) => m[1] ?? m[2]));
}

function expectMailSafe(mail: CapturedMail): void {
  expect(mail.html).not.toMatch(/<script|javascript:|<form|<iframe|<object|<embed|<style/i);
  expect(mail.html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
  expect(loadedResources(mail.html)).toEqual([LOGO]);
}

describe("mails in the language the request asked in", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext(
    {
      env: { AUTH_EMAIL_OTP: "on", AUTH_APP_NAME: "Acme" },
      config: { pages: { logoURL: LOGO, primaryColor: "#0a7d4f" }, organization: { enabled: true } },
    },
    (ready) => ({ t, mailbox } = ready),
  );

  it("a sign-up on the German page gets its verification mail in German, both parts, mail-safe", async () => {
    const browser = t.agent();
    browser.headers["accept-language"] = "de-CH, de;q=0.9, en;q=0.5";
    const email = `lena.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const fields = await pageForm(browser, "/account/sign-up");
    const posted = await postForm(browser, "/account/sign-up", {
      ...fields,
      name: "Lena Müller",
      email,
      password: "correct-horse-battery",
    });
    expect(posted.status).toBe(303);
    await t.ctx.settle();
    const [mail] = mailbox.to(email);
    expect(mail.kind).toBe("verify-email");
    expect(mail.subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse für Acme");
    expect(mail.plain).toContain("Hallo Lena Müller,");
    expect(mail.plain).toContain(`Bitte bestätigen Sie, dass ${email} Ihre Adresse ist.`);
    expect(mail.plain).toContain("Oder geben Sie diesen Code ein, wo Acme danach fragt:");
    expect(mail.plain.match(CODE_LINE)?.[1]).toMatch(/^\d{6}$/);
    expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
    expect(mail.html).toContain("Adresse bestätigen</a>");
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/im);
    expectMailSafe(mail);
  });

  it("an email code asked for in German comes in German, its type named as the API names it", async () => {
    const email = `code.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const agent = t.agent();
    agent.headers["accept-language"] = "de";
    const sent = await agent.post("/email-otp/send-verification-otp", { email, type: "forget-password" });
    expect(sent.status).toBe(200);
    await t.ctx.settle();
    expect(mailCount(mailbox, email)).toBe(0); // no account: no reset code, as the API promises
    await t.agent().post("/sign-up/email", { name: "Kim", email, password: "correct-horse-battery" });
    await agent.post("/email-otp/send-verification-otp", { email, type: "forget-password" });
    await t.ctx.settle();
    const mail = mailbox.to(email).find((m) => m.kind === "password-reset-code") as CapturedMail;
    expect(mail.raw).toMatch(/^X-Authd-Otp-Type: forget-password\r?$/m);
    expect(mail.subject).toBe("Ihr Code zum Zurücksetzen des Passworts für Acme");
    expect(mail.plain).toContain("Geben Sie diesen Code ein, um ein neues Passwort zu wählen:");
    expect(mail.plain.match(CODE_LINE)?.[1]).toMatch(/^\d{6}$/);
    expectMailSafe(mail);
  });

  it("an API sign-up that names no language gets English (AUTH_DEFAULT_LANGUAGE)", async () => {
    const email = `sam.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await t.agent().post("/sign-up/email", { name: "Sam", email, password: "correct-horse-battery" });
    expect(res.status).toBe(200);
    await t.ctx.settle();
    const [mail] = mailbox.to(email);
    expect(mail.subject).toBe("Confirm your email address for Acme");
    expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expectMailSafe(mail);
  });

  it("an invitation sent from a German request is in the deployment's language: the request is not the invitee's", async () => {
    const owner = await ownerWithOrganization(t, "Müller & Söhne <GmbH>");
    await t.ctx.settle();
    owner.agent.headers["accept-language"] = "de";
    const invitee = `invitee.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const seen = mailCount(mailbox, invitee);
    const res = await owner.agent.post("/organization/invite-member", { email: invitee, role: "member" });
    expect(res.status, res.text).toBe(200);
    await t.ctx.settle();
    const mail = mailbox.to(invitee)[seen];
    expect(mail.kind).toBe("invitation");
    expect(mail.subject).toBe("You are invited to join Müller & Söhne <GmbH> on Acme");
    expect(mail.html).toContain("Müller &amp; Söhne &lt;GmbH&gt;");
    expectMailSafe(mail);
  });
});
