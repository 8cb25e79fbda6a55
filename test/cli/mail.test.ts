import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/daemon.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { runCli } from "./run.ts";
import { tryServe } from "./serve-attempt.ts";

// Issue 31: `authd mail preview` and `authd mail send-test`, and the operator's templates
// (AUTH_MAIL_TEMPLATES) as `serve` and `config check` judge them: a broken template or one without its link
// stops both with one line naming the file, exit 2, like every other configuration problem.

function templateDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "authd-mail-cli-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const GOOD = "Subject: Bitte bestätigen, {{name}}\n\nHallo {{name}} von {{appName}}!\n\n[Bestätigen]({{link}})\n";
const BROKEN = "Subject: Hi\n\nHello {{name\n\n[Go]({{link}})\n";
const NO_LINK = "Subject: Reset\n\nHello {{name}}, your password is safe with us.\n";

describe("authd mail preview", () => {
  it("shows a mail with sample values in the language asked for", async () => {
    const result = await runCli(["mail", "preview", "verify-email", "--lang", "de"], {
      env: { AUTH_APP_NAME: "Acme" },
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("Subject: Bestätigen Sie Ihre E-Mail-Adresse für Acme");
    expect(lines[1]).toBe("Language: de");
    expect(lines).toContain("Hallo Alice Example,");
    expect(lines.find((line) => line.startsWith("http://"))).toMatch(
      /^http:\/\/localhost:\d+\/api\/auth\/verify-email\?token=SAMPLE-TOKEN-opens-nothing&callbackURL=/,
    );
  });

  it("prints one part with --html or --text, and everything with --json", async () => {
    const html = await runCli(["mail", "preview", "sign-in-code", "--html"], { env: {} });
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(html.stdout).toContain(">123456</p>");
    const text = await runCli(["mail", "preview", "sign-in-code", "--text"], { env: {} });
    expect(text.stdout.split("\n")).toContain("123456");
    expect(text.stdout).not.toContain("<");
    const json = await runCli(["mail", "preview", "two-factor-locked", "--json", "--lang", "en"], { env: {} });
    expect(json.json()).toMatchObject({ mail: "two-factor-locked", language: "en", subject: expect.any(String) });
  });

  it("refuses an unknown mail or language as bad usage, naming what there is", async () => {
    const unknown = await runCli(["mail", "preview", "welcome"], { env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^authd: <mail>: expected one of verify-email, confirm-email-change, /);
    const language = await runCli(["mail", "preview", "magic-link", "--lang", "fr"], { env: {} });
    expect(language.code).toBe(2);
    expect(language.stderr).toBe("authd: --lang: expected one of en, de\n");
    const both = await runCli(["mail", "preview", "magic-link", "--html", "--text"], { env: {} });
    expect(both.code).toBe(2);
  });

  it("shows the operator's template for the mail and language it covers, authd's own for the rest", async () => {
    const dir = templateDir({ "verify-email.de.md": GOOD });
    const german = await runCli(["mail", "preview", "verify-email", "--lang", "de"], {
      env: { AUTH_MAIL_TEMPLATES: dir, AUTH_APP_NAME: "Acme" },
    });
    expect(german.code, german.stderr).toBe(0);
    expect(german.stdout).toMatch(/^Subject: Bitte bestätigen, Alice Example\n/);
    expect(german.stdout).toContain("Hallo Alice Example von Acme!");
    const english = await runCli(["mail", "preview", "verify-email", "--lang", "en"], {
      env: { AUTH_MAIL_TEMPLATES: dir, AUTH_APP_NAME: "Acme" },
    });
    expect(english.stdout).toMatch(/^Subject: Confirm your email address for Acme\n/);
  });
});

describe("operator templates that cannot be used stop serve and config check", () => {
  const cases = [
    ["does not parse", "verify-email.de.md", BROKEN, "line 3: {{ is not closed by }}"],
    ["lacks its link", "reset-password.en.md", NO_LINK, "line 3: the template lacks {{link}}"],
  ] as const;

  it.each(cases)(
    "a template that %s: config check exits 2 with one line naming the file",
    async (_, name, text, why) => {
      const dir = templateDir({ "verify-email.en.md": GOOD, [name]: text });
      const result = await runCli(["config", "check"], { env: { AUTH_MAIL_TEMPLATES: dir } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^AUTH_MAIL_TEMPLATES: ${literal(join(dir, name))}: ${literal(why)}`));
    },
  );

  it.each(cases)(
    "a template that %s: serve exits 2 with one line naming the file, never listening",
    async (_, name, text, why) => {
      const dir = templateDir({ [name]: text });
      const result = await tryServe({ AUTH_MAIL_TEMPLATES: dir, AUTH_SECRET: randomBytes(48).toString("base64") });
      expect(result.up).toBeNull();
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`AUTH_MAIL_TEMPLATES: ${join(dir, name)}: ${why}`);
    },
  );

  it("config check accepts good templates", async () => {
    const dir = templateDir({ "verify-email.de.md": GOOD });
    const result = await runCli(["config", "check"], { env: { AUTH_MAIL_TEMPLATES: dir } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`mailTemplates          ${dir}`);
  });
});

describe("authd mail send-test", () => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox.close());

  it("sends a sample mail through the configured SMTP server", async () => {
    const result = await runCli(
      ["mail", "send-test", "ops@example.com", "--mail", "magic-link", "--lang", "de", "--json"],
      {
        env: { AUTH_SMTP_URL: mailbox.url, AUTH_MAIL_FROM: "auth@example.com" },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toEqual({
      sent: true,
      mail: "magic-link",
      language: "de",
      to: "ops@example.com",
      via: mailbox.url,
    });
    const [mail] = mailbox.to("ops@example.com");
    expect(mail).toMatchObject({ from: "auth@example.com", kind: "magic-link", subject: "Ihr Anmeldelink für authd" });
    expect(mail.plain).toContain("Öffnen Sie den Link, um sich bei authd anzumelden.");
    expect(mail.html).toContain("Anmelden</a>");
  });

  it("says why when there is no SMTP server to send through, or it does not answer", async () => {
    const unset = await runCli(["mail", "send-test", "ops@example.com"], { env: {} });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toBe(
      "authd: AUTH_SMTP_URL is not set: without it mails only go to the log; set it to send a test mail\n",
    );
    const port = await freePort();
    const down = await runCli(["mail", "send-test", "ops@example.com"], {
      env: { AUTH_SMTP_URL: `smtp://127.0.0.1:${port}?tls=off` },
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`authd: smtp 127.0.0.1:${port}: connection refused\n`);
    const address = await runCli(["mail", "send-test", "not-an-address"], { env: {} });
    expect(address.code).toBe(2);
  });
});
