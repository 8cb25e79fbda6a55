import { describe, expect, it } from "vitest";
import { codeOf, linkOf, MAIL_KINDS, type MailKind, type MailMessage } from "../../src/wire/mail.ts";
import { renderMail } from "../../ui/mail/render.tsx";
import { LOCALES } from "../../ui/shared/messages/index.ts";

// Issue 31: every mail, in every language, in both parts: the link or code it exists to carry is there and
// exactly right, and HTML-looking input from users (a name, an organization's name) stays text in both.

const HOSTILE = "<img src=x onerror=alert(1)>";
const LINK =
  "https://auth.example.com/api/auth/verify-email?token=abc.DEF-123&callbackURL=https%3A%2F%2Fapp.example%2F%3Fa%3D1%26b%3D2";
const CODE = "482913";

/** One message of each kind, with a hostile value wherever a user chooses the text. */
function message(kind: MailKind): MailMessage {
  const person = { name: HOSTILE, email: "alice@example.com" };
  const to = person.email;
  switch (kind) {
    case "verify-email":
      return { kind, to, values: { ...person, link: LINK, linkExpiresIn: 3600, code: CODE, codeExpiresIn: 300 } };
    case "confirm-email-change":
      return { kind, to, values: { ...person, newEmail: "alice@new.example", link: LINK, linkExpiresIn: 3600 } };
    case "reset-password":
    case "delete-account":
      return { kind, to, values: { ...person, link: LINK, linkExpiresIn: 86_400 } };
    case "magic-link":
      return { kind, to, values: { email: to, link: LINK, linkExpiresIn: 300, code: CODE, codeExpiresIn: 300 } };
    case "sign-in-code":
    case "email-verification-code":
    case "password-reset-code":
      return { kind, to, values: { email: to, code: CODE, codeExpiresIn: 300 } };
    case "two-factor-code":
      return { kind, to, values: { ...person, code: CODE, codeExpiresIn: 180 } };
    case "two-factor-locked":
      return { kind, to, values: { ...person, failures: 20, lockedFor: 900, lockedUntil: Date.UTC(2030, 0, 2, 3, 4) } };
    case "invitation":
      return {
        kind,
        to,
        values: {
          email: to,
          inviterName: HOSTILE,
          inviterEmail: "bob@example.com",
          organizationName: `${HOSTILE} & Co`,
          role: "member",
          link: LINK,
          expiresAt: Date.UTC(2030, 0, 2),
        },
      };
  }
}

const BRANDING = { appName: "Acme <b>Auth</b>", logoURL: "https://cdn.example.com/logo.png", primaryColor: "#0a7d4f" };
const render = (kind: MailKind, language: string) =>
  renderMail(message(kind), { language, defaultLanguage: "en", branding: BRANDING });

/** The attribute values and text of an HTML document, entities decoded: what a mail client shows and follows. */
const decodeEntities = (html: string) =>
  html.replace(
    /&(amp|lt|gt|quot|#x27);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'" })[name] as string,
  );

describe.each(MAIL_KINDS)("the %s mail", (kind) => {
  describe.each(LOCALES)("in %s", (language) => {
    const mail = render(kind, language);
    const link = linkOf(message(kind));
    const code = codeOf(message(kind));

    it("is written in that language, with a subject of one line", () => {
      expect(mail.locale).toBe(language);
      expect(mail.html).toContain(`<html lang="${language}" dir="ltr">`);
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.subject.length).toBeGreaterThan(5);
      // Lock screens and mail listings show subjects: never the link or the code.
      expect(mail.subject).not.toContain(CODE);
      expect(mail.subject).not.toMatch(/https?:|token=/);
    });

    it("plain text: carries its link and code exactly, each alone on a line, and user input as the characters it is", () => {
      const lines = mail.text.split("\n");
      if (link) expect(lines).toContain(link);
      if (code) expect(lines).toContain(code);
      if (!link && !code) expect(mail.text).not.toMatch(/https?:\/\//);
      if (kind !== "magic-link" && !kind.endsWith("-code") && kind !== "invitation")
        expect(mail.text).toContain(HOSTILE);
      if (kind === "invitation") expect(mail.text).toContain(`${HOSTILE} & Co`);
      // Nothing in it but the link or code that could act for the user: no other URL, no token.
      const urls = mail.text.match(/https?:\/\/\S+/g) ?? [];
      expect(urls.every((url) => url === link)).toBe(true);
    });

    it("HTML: the button goes to the exact link, the code is shown, and user input is escaped", () => {
      if (link) {
        const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => decodeEntities(m[1] as string));
        expect(hrefs.length).toBeGreaterThan(0);
        expect(hrefs.every((href) => href === link)).toBe(true);
      } else expect(mail.html).not.toContain("href=");
      if (code) expect(mail.html).toContain(`>${code}</p>`);
      expect(mail.html).not.toContain("<img src=x");
      expect(mail.html).not.toContain("<b>Auth</b>");
      if (kind !== "magic-link" && !kind.endsWith("-code"))
        expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    });

    it("HTML is mail-safe: no script, nothing loaded from elsewhere but the operator's logo", () => {
      expect(mail.html).toMatch(/^<!DOCTYPE html>/);
      expect(mail.html).not.toMatch(/<script|javascript:|<link|<iframe|<object|<embed|@import|url\(|<style/i);
      expect(mail.html).not.toMatch(/<[^>]*\son[a-z]+=/i);
      const sources = [...mail.html.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1]);
      expect(sources).toEqual([BRANDING.logoURL]);
      expect(mail.html).toContain('role="presentation"');
    });
  });
});

describe("mail languages and branding", () => {
  it("picks the user's language, then the request's Accept-Language, then the default", () => {
    const base = { defaultLanguage: "en" as const, branding: BRANDING };
    const verify = message("verify-email");
    expect(renderMail(verify, { ...base, language: "de", acceptLanguage: "en" }).locale).toBe("de");
    expect(renderMail(verify, { ...base, acceptLanguage: "fr-CA, de-AT;q=0.8, en;q=0.5" }).locale).toBe("de");
    expect(renderMail(verify, { ...base, acceptLanguage: "fr" }).locale).toBe("en");
    expect(renderMail(verify, { ...base, defaultLanguage: "de" }).locale).toBe("de");
  });

  it("writes German words in German and English ones in English", () => {
    expect(render("reset-password", "de").subject).toBe("Setzen Sie Ihr Passwort für Acme <b>Auth</b> zurück");
    expect(render("reset-password", "en").subject).toBe("Reset your Acme <b>Auth</b> password");
    expect(render("two-factor-locked", "de").text).toContain("für 15 Minuten gesperrt");
    expect(render("two-factor-locked", "en").text).toContain(
      "locked for 15 minutes (until January 2, 2030 at 3:04 AM UTC)",
    );
  });

  it("draws the button in the operator's colour with readable text on it, and the app name without a logo", () => {
    expect(render("magic-link", "en").html).toContain("background-color:#0a7d4f");
    expect(render("magic-link", "en").html).toContain("color:#ffffff;text-decoration:none");
    const light = renderMail(message("magic-link"), {
      defaultLanguage: "en",
      branding: { appName: "Pale", logoURL: null, primaryColor: "#ffe066" },
    });
    expect(light.html).toContain("color:#000000;text-decoration:none");
    expect(light.html).not.toContain("<img");
    expect(light.html).toContain(">Pale</span>");
  });

  it("leaves the code out of the verification mail when email codes are off", () => {
    const verify = message("verify-email");
    const withoutCode = { ...verify, values: { ...verify.values, code: null, codeExpiresIn: null } } as MailMessage;
    const mail = renderMail(withoutCode, { defaultLanguage: "en", branding: BRANDING });
    expect(mail.text).not.toContain(CODE);
    expect(mail.text).not.toContain("Or type this code");
    expect(mail.html).not.toContain(CODE);
  });

  it("keeps a line break in a value out of the subject", () => {
    const invitation = message("invitation");
    const broken = {
      ...invitation,
      values: { ...invitation.values, organizationName: "Evil\r\nBcc: victim@example.com" },
    } as MailMessage;
    const mail = renderMail(broken, { defaultLanguage: "en", branding: BRANDING });
    expect(mail.subject).toBe("You are invited to join Evil Bcc: victim@example.com on Acme <b>Auth</b>");
  });
});
