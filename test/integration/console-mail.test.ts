import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewMail } from "../../src/services/mail/preview.ts";
import { MAIL_KINDS } from "../../src/wire/mail.ts";
import { LOCALES } from "../../ui/shared/messages/index.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// Issue 31: the console shows the same mail previews as `authd mail preview` (one preview service), every
// mail in every language, the operator's template where there is one; the HTML part is drawn on its own
// under a mail's policy with a sandbox that lets nothing run or navigate; only an admin who may read the
// settings sees it.

const GERMAN_RESET = "Subject: Neues Passwort für {{appName}}\n\nHallo {{name}},\n\n[Passwort wählen]({{link}})\n";
const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

describe("the console's mail screen", () => {
  let t: TestContext;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authd-console-mail-"));
    writeFileSync(join(dir, "reset-password.de.md"), GERMAN_RESET);
    t = await createTestContext({
      env: { AUTH_APP_NAME: "Acme <Auth>", AUTH_MAIL_TEMPLATES: dir, AUTH_EMAIL_OTP: "on" },
      config: { admin: { roles: { reader: { settings: ["read"] }, support: { user: ["list"] } } } },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows every mail in every language as the preview service renders it, its HTML part framed", async () => {
    const admin = await consoleUser(t);
    for (const mail of MAIL_KINDS)
      for (const lang of LOCALES) {
        const expected = await previewMail(t.ctx.config, mail, lang);
        const page = await browse(admin.agent, `/console/mail?mail=${mail}&lang=${lang}`);
        expect([mail, lang, page.status]).toEqual([mail, lang, 200]);
        expect(page.text).toContain(`<dd>${escaped(expected.subject)}</dd>`);
        expect(page.text).toContain(escaped(expected.text.split("\n")[0] as string));
        if (expected.link) expect(page.text).toContain(escaped(expected.link));
        if (expected.code) expect(page.text).toContain(`>${expected.code}</code>`);
        expect(page.text).toContain(`src="/console/mail/html?mail=${mail}&amp;lang=${lang}"`);

        const html = await admin.agent.get(`/console/mail/html?mail=${mail}&lang=${lang}`);
        expect(html.status).toBe(200);
        expect(html.headers.get("content-type")).toMatch(/^text\/html/);
        expect(html.text).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lang}"`));
        if (expected.link) expect(html.text).toContain(`href="${escaped(expected.link)}"`);
        expect(html.text).not.toContain("<Auth>");
      }
  });

  it("draws the HTML part under a mail's policy: framed by the console only, nothing runs or navigates", async () => {
    const admin = await consoleUser(t);
    const html = await admin.agent.get("/console/mail/html?mail=magic-link&lang=en");
    const policy = html.headers.get("content-security-policy") ?? "";
    expect(policy.split("; ")).toEqual(
      expect.arrayContaining(["default-src 'none'", "frame-ancestors 'self'", "form-action 'none'", "sandbox"]),
    );
    expect(policy).not.toMatch(/script-src|allow-/);
    expect(html.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(html.text).not.toContain("<base");
    // The screen itself keeps the pages' policy, and its frame is sandboxed too.
    const page = await browse(admin.agent, "/console/mail?mail=magic-link&lang=en");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.text).toMatch(/<iframe[^>]* sandbox=""/);
  });

  it("shows the operator's template for the mail and language it covers, and authd's own elsewhere", async () => {
    const admin = await consoleUser(t);
    const german = await browse(admin.agent, "/console/mail?mail=reset-password&lang=de");
    expect(german.text).toContain("<dd>Neues Passwort für Acme &lt;Auth&gt;</dd>");
    expect(german.text).toContain(`<code>${join(dir, "reset-password.de.md")}</code>`);
    expect(german.text).toContain(escaped(dir));
    const english = await browse(admin.agent, "/console/mail?mail=reset-password&lang=en");
    expect(english.text).toContain("<dd>Reset your Acme &lt;Auth&gt; password</dd>");
    expect(english.text).toContain("<dd>authd&#x27;s own</dd>");
  });

  it("takes what the query does not name as the first mail in the default language, and reflects nothing", async () => {
    const admin = await consoleUser(t);
    const hostile = encodeURIComponent("<script>alert(1)</script>");
    const page = await browse(admin.agent, `/console/mail?mail=${hostile}&lang=${hostile}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert(1)");
    expect(page.text).not.toContain("alert(1)");
    expect(page.text).toContain('src="/console/mail/html?mail=verify-email&amp;lang=en"');
    expect(page.text).toContain('aria-current="page">Mail</a>');
    for (const query of [`mail=${hostile}&lang=en`, "mail=magic-link&lang=fr", "mail=magic-link", ""])
      expect((await admin.agent.get(`/console/mail/html?${query}`)).status, query).toBe(404);
  });

  it("opens for a role that may read the settings, and for no one else", async () => {
    const reader = await consoleUser(t, "reader");
    const page = await browse(reader.agent, "/console/mail");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/console/mail"');
    expect((await reader.agent.get("/console/mail/html?mail=magic-link&lang=en")).status).toBe(200);
    const support = await consoleUser(t, "support");
    const plain = await signUp(t);
    for (const agent of [support.agent, plain.agent]) {
      expect((await browse(agent, "/console/mail")).status).toBe(403);
      expect((await browse(agent, "/console/mail/html?mail=magic-link&lang=en")).status).toBe(403);
    }
    expect((await browse(support.agent, "/console/users")).text).not.toContain('href="/console/mail"');
    const signedOut = await browse(t.agent(), "/console/mail/html?mail=magic-link&lang=en");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/account\/sign-in\?redirect=/);
  });
});
