import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, isLoopbackHost } from "../../src/services/mail/outbox.ts";
import { sendCode } from "../../src/services/two-factor/mailed-code.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// Issue 31: the development outbox. Without SMTP, on a daemon listening on loopback (or with
// AUTH_DEV_OUTBOX=on), the last 100 mails are shown at /account/dev/outbox with their link and code picked
// out and their HTML part in a sandboxed frame. Anywhere else the paths do not exist (404).

const HOSTILE = "<img src=x onerror=alert(1)>";

describe("the development outbox on loopback without SMTP", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_HOST: "127.0.0.1", AUTH_APP_NAME: "Acme" } });
  });
  afterAll(() => t.close());

  it("lists a sign-up's verification mail, in the language the sign-up asked in, with its link", async () => {
    const agent = t.agent();
    agent.headers["accept-language"] = "de-DE,de;q=0.9";
    const email = "outbox.de@example.com";
    const signedUp = await agent.post("/sign-up/email", { name: HOSTILE, email, password: "correct-horse-battery" });
    expect(signedUp.status).toBe(200);
    await t.ctx.settle();
    const page = await browse(t.agent(), "/account/dev/outbox");
    expect(page.status).toBe(200);
    const [mail] = t.ctx.outbox?.list() ?? [];
    expect(mail).toMatchObject({ kind: "verify-email", to: email, locale: "de" });
    expect(mail.subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse für Acme");
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);
    // The page: the subject, the link as a link, the plain text; the user's name only as escaped text.
    expect(page.text).toContain("Bestätigen Sie Ihre E-Mail-Adresse für Acme</h2>");
    expect(page.text).toContain(`href="${(mail.link as string).replaceAll("&", "&amp;")}"`);
    expect(page.text).toContain("Hallo &lt;img src=x onerror=alert(1)&gt;,");
    expect(page.text).not.toContain(HOSTILE);
    expect(page.text).toContain(`<iframe class="authd-outbox-html" src="/account/dev/outbox/${mail.id}"`);
    expect(page.text).toContain(
      'sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"',
    );
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("draws a mail's HTML part on its own, with a policy of its own: no script, framed by the outbox only", async () => {
    await signUp(t);
    await t.ctx.settle();
    const [mail] = t.ctx.outbox?.list() ?? [];
    const view = await browse(t.agent(), `/account/dev/outbox/${mail.id}`);
    expect(view.status).toBe(200);
    expect(view.text).toMatch(/^<!DOCTYPE html><html lang="en" dir="ltr"><head><base target="_top">/);
    expect(view.text).toContain(mail.subject);
    const policy = view.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("sandbox ");
    expect(policy).not.toContain("script-src");
    expect(view.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect((await browse(t.agent(), "/account/dev/outbox/no-such-mail")).status).toBe(404);
  });

  it("keeps a mail's code beside its link: a two-factor code mail shows its code", async () => {
    const { user } = await signUp(t);
    await sendCode(t.ctx, "outbox-challenge", user);
    await t.ctx.settle();
    const [mail] = t.ctx.outbox?.list() ?? [];
    expect(mail.kind).toBe("two-factor-code");
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text.split("\n")).toContain(mail.code);
    const page = await browse(t.agent(), "/account/dev/outbox");
    expect(page.text).toContain(`<code class="authd-outbox-code">${mail.code}</code>`);
  });
});

describe("the development outbox is not there", () => {
  const cases: [string, Record<string, string>][] = [
    ["on a non-loopback listen address", { AUTH_HOST: "0.0.0.0" }],
    ["on a public address", { AUTH_HOST: "203.0.113.7" }],
    [
      "on loopback behind a proxy (a public base URL)",
      { AUTH_HOST: "127.0.0.1", AUTH_BASE_URL: "https://auth.example.com" },
    ],
    ["when switched off, even on loopback", { AUTH_HOST: "127.0.0.1", AUTH_DEV_OUTBOX: "off" }],
    [
      "with SMTP configured, even with AUTH_DEV_OUTBOX=on",
      { AUTH_HOST: "127.0.0.1", AUTH_DEV_OUTBOX: "on", AUTH_SMTP_URL: "smtp://127.0.0.1:9?tls=off" },
    ],
  ];

  it.each(cases)("%s: 404, and no mail is kept", async (_, env) => {
    const t = await createTestContext({ env });
    try {
      expect(t.ctx.outbox).toBeNull();
      for (const path of ["/account/dev/outbox", "/account/dev/outbox/anything"]) {
        const answer = await browse(t.agent(), path);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ code: "NOT_FOUND", message: "Not Found" });
      }
    } finally {
      await t.close();
    }
  });

  it("is there on any address when AUTH_DEV_OUTBOX=on and no SMTP is configured", async () => {
    const t = await createTestContext({ env: { AUTH_HOST: "0.0.0.0", AUTH_DEV_OUTBOX: "on" } });
    try {
      expect((await browse(t.agent(), "/account/dev/outbox")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("the outbox's store", () => {
  it("keeps the newest 100 mails, newest first", () => {
    const outbox = createOutbox();
    for (let i = 0; i < 105; i++)
      outbox.add({
        kind: "magic-link",
        to: `u${i}@example.com`,
        subject: `#${i}`,
        locale: "en",
        sentAt: i,
        link: null,
        code: null,
        text: "",
        html: "",
      });
    const kept = outbox.list();
    expect(kept).toHaveLength(100);
    expect(kept[0].subject).toBe("#104");
    expect(kept.at(-1)?.subject).toBe("#5");
    expect(outbox.find(kept[3].id)).toBe(kept[3]);
  });

  it("counts loopback addresses as loopback and nothing else", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "localhost.example.com", "128.0.0.1"])
      expect(isLoopbackHost(host)).toBe(false);
  });
});
