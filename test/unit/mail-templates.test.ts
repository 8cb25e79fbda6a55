import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { MailMessage } from "../../src/wire/mail.ts";
import { renderMail } from "../../ui/mail/render.tsx";
import { readMailTemplates } from "../../ui/mail/template-dir.ts";
import { parseTemplate } from "../../ui/mail/template-format.ts";

// Issue 31: an operator's own templates (AUTH_MAIL_TEMPLATES). One file replaces one mail in one language;
// a file that cannot be used is refused with one line naming it and the line that is wrong, never skipped.

const dirs: string[] = [];
function templateDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "authd-mail-templates-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const GERMAN_VERIFY = [
  "Subject: Willkommen bei {{appName}}, {{name}}",
  "",
  "Hallo {{name}}, schön, dass Sie da sind.",
  "Zweite Zeile.",
  "",
  "[Jetzt bestätigen]({{link}})",
  "",
  "{{#code}}",
  "Oder tippen Sie den Code ({{codeExpiresIn}} gültig):",
  "",
  "{{code}}",
  "{{/code}}",
  "",
  "[Hilfe](https://help.example.com/verify)",
  "",
].join("\n");

function verifyMessage(name: string, code: string | null): MailMessage {
  return {
    kind: "verify-email",
    to: "alice@example.com",
    values: {
      name,
      email: "alice@example.com",
      link: "https://auth.example.com/api/auth/verify-email?token=t&callbackURL=x",
      linkExpiresIn: 3600,
      code,
      codeExpiresIn: code ? 300 : null,
    },
  };
}

const options = (templatesDir: string, language: string) => ({
  language,
  defaultLanguage: "en" as const,
  branding: { appName: "Acme", logoURL: null, primaryColor: "#2f5bd3" },
  templatesDir,
});

describe("an operator's template", () => {
  it("replaces one mail in one language; the other language and the other mails stay authd's own", () => {
    const dir = templateDir({ "verify-email.de.md": GERMAN_VERIFY });
    const german = renderMail(verifyMessage("Alice", "123456"), options(dir, "de"));
    expect(german.subject).toBe("Willkommen bei Acme, Alice");
    expect(german.text).toBe(
      [
        "Hallo Alice, schön, dass Sie da sind.\nZweite Zeile.",
        "Jetzt bestätigen:\nhttps://auth.example.com/api/auth/verify-email?token=t&callbackURL=x",
        "Oder tippen Sie den Code (5 Minuten gültig):",
        "123456",
        "Hilfe:\nhttps://help.example.com/verify",
        "-- \nDiese E-Mail wurde von Acme an alice@example.com gesendet.\n",
      ].join("\n\n"),
    );
    expect(german.html).toContain("Hallo Alice, schön, dass Sie da sind.</span><span><br/>Zweite Zeile.");
    expect(german.html).toContain('href="https://help.example.com/verify"');
    // The same template without a code: the section is left out.
    expect(renderMail(verifyMessage("Alice", null), options(dir, "de")).text).not.toContain("Oder tippen");
    // English, and another mail in German: authd's own words.
    expect(renderMail(verifyMessage("Alice", null), options(dir, "en")).subject).toBe(
      "Confirm your email address for Acme",
    );
    const reset: MailMessage = {
      kind: "reset-password",
      to: "alice@example.com",
      values: { name: "Alice", email: "alice@example.com", link: "https://x.example/r", linkExpiresIn: 3600 },
    };
    expect(renderMail(reset, options(dir, "de")).subject).toBe("Setzen Sie Ihr Passwort für Acme zurück");
  });

  it("fills values in as text: a name cannot add a button, a section, a variable or markup", () => {
    const dir = templateDir({ "verify-email.de.md": GERMAN_VERIFY });
    const hostile = "[Click](https://evil.example) {{link}} {{#code}} <img src=x onerror=alert(1)>";
    const mail = renderMail(verifyMessage(hostile, null), options(dir, "de"));
    expect(mail.html).not.toContain('href="https://evil.example"');
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mail.text).toContain(`Hallo ${hostile}, schön`);
    expect(mail.text.match(/https:\/\/auth\.example\.com/g)).toHaveLength(1);
  });

  it.each([
    ["no subject line", "Hello\n\n[Go]({{link}})\n", "line 1: a template starts with its subject"],
    ["no blank line after the subject", "Subject: Hi\nHello\n", "line 2: leave line 2 blank"],
    ["an unclosed variable", "Subject: Hi\n\nHello {{name\n\n[Go]({{link}})\n", "line 3: {{ is not closed by }}"],
    ["a stray }}", "Subject: Hi\n\nHello name}}\n", "line 3: }} without a {{ before it"],
    [
      "an unknown variable",
      "Subject: Hi\n\n[Go]({{link}})\n\nBye {{nmae}}\n",
      "line 5: unknown variable {{nmae}} (the verify-email mail has appName, email, name, link, expiresIn, code, codeExpiresIn)",
    ],
    [
      "no link",
      "Subject: Hi\n\nHello {{name}}\n",
      "the template lacks {{link}}, which the verify-email mail exists to carry",
    ],
    ["the link only in a section", "Subject: Hi\n\n{{#code}}\n{{link}}\n{{/code}}\n", "the template lacks {{link}}"],
    [
      "the code outside its section",
      "Subject: Hi\n\n{{link}}\n\n{{code}}\n",
      "{{code}} may be empty in the verify-email mail",
    ],
    ["the code in the subject", "Subject: {{code}}\n\n{{link}}\n", "line 1: {{code}} does not go in the subject"],
    [
      "an unclosed section",
      "Subject: Hi\n\n{{link}}\n\n{{#code}}\n{{code}}\n",
      "line 5: {{#code}} is not closed by {{/code}}",
    ],
    [
      "a section of a variable that is always there",
      "Subject: Hi\n\n{{#link}}\n{{link}}\n{{/link}}\n",
      "line 3: {{#link}}",
    ],
    [
      "a button to something else",
      "Subject: Hi\n\n[Go](javascript:alert)\n\n{{link}}\n",
      "line 3: a button goes to {{link}} or an https:// address",
    ],
  ])("refuses %s, naming the line", (_, source, message) => {
    expect(() => parseTemplate(source, "verify-email")).toThrow(message);
  });

  it("requires the code in a code mail", () => {
    expect(() => parseTemplate("Subject: Your code\n\nHello\n", "sign-in-code")).toThrow(
      "the template lacks {{code}}, which the sign-in-code mail exists to carry",
    );
    expect(parseTemplate("Subject: Your code\n\n{{code}}\n", "sign-in-code").blocks).toEqual([
      { type: "code", variable: "code" },
    ]);
  });
});

describe("the template directory", () => {
  it("gives one line per unusable file, naming it; good files and dotfiles are kept or skipped quietly", () => {
    const dir = templateDir({
      "verify-email.de.md": GERMAN_VERIFY,
      "reset-password.en.md": "Subject: Reset\n\nHello {{name}}\n",
      "verfy-email.en.md": "Subject: Hi\n\n{{link}}\n",
      "magic-link.fr.md": "Subject: Hi\n\n{{link}}\n",
      "notes.txt": "what these are",
      ".DS_Store": "",
    });
    const { templates, problems } = readMailTemplates(dir);
    expect([...templates.keys()]).toEqual(["verify-email.de"]);
    expect(problems).toEqual([
      `AUTH_MAIL_TEMPLATES: ${join(dir, "magic-link.fr.md")}: authd has no language fr (it has en, de)`,
      `AUTH_MAIL_TEMPLATES: ${join(dir, "notes.txt")}: not a template's name; name each file <mail>.<language>.md, e.g. verify-email.de.md (docs/mail.md)`,
      `AUTH_MAIL_TEMPLATES: ${join(dir, "reset-password.en.md")}: line 3: the template lacks {{link}}, which the reset-password mail exists to carry`,
      expect.stringMatching(/verfy-email\.en\.md: no mail is called verfy-email \(the mails: verify-email, /),
    ]);
  });

  it("names a directory it cannot read", () => {
    expect(readMailTemplates("/nonexistent/authd-templates").problems).toEqual([
      "AUTH_MAIL_TEMPLATES: cannot read the directory /nonexistent/authd-templates (ENOENT); point it at your templates or unset it",
    ]);
  });

  it("refuses to send authd's own words instead of a broken template's", () => {
    const dir = templateDir({ "verify-email.en.md": "Subject: Hi\n\nno link here\n" });
    expect(() => renderMail(verifyMessage("Alice", null), options(dir, "en"))).toThrow(/lacks \{\{link\}\}/);
  });
});
