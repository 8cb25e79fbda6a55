import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { alertText, formTokenOf, HOSTILE_RETURN_ADDRESSES, PAGES, postForm, submitPage } from "../helpers/pages.ts";

// authd's pages as a browser without JavaScript uses them (plain form posts), and as an attacker tries
// them: forged and foreign forms, open redirects, reflected markup, framing, hostile fields.

const sessionCookie = (setCookies: string[]) =>
  setCookies.find(
    (line) => line.startsWith("better-auth.session_token=") && !line.startsWith("better-auth.session_token=;"),
  );

describeEachDialect("pages: sign-in, sign-up, sign-out without JavaScript", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_TRUSTED_ORIGINS: "https://app.example.com" } });
  });
  afterAll(() => t.close());

  it("signs up through the form: a session cookie and a 303 to the app", async () => {
    const agent = t.agent();
    const email = `page.${Date.now()}@example.com`;
    const res = await submitPage(agent, "/sign-up", { name: "Page User", email, password: "correct-horse-battery" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://localhost:3000/account");
    expect(sessionCookie(res.setCookies)).toBeDefined();
    const session = await agent.get("/get-session");
    expect(session.body.user.email).toBe(email);
  });

  it("signs in, shows who is signed in, and signs out", async () => {
    const { email, password } = await signUp(t);
    const agent = t.agent();
    const signedIn = await submitPage(agent, "/sign-in", { identifier: email, password, rememberMe: "on" });
    expect(signedIn.status).toBe(303);
    expect(sessionCookie(signedIn.setCookies)).toBeDefined();
    const page = await agent.get(`${PAGES}/sign-in`);
    expect(page.text).toContain(`Signed in as ${email}.`);
    const csrf = page.text.match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";
    const out = await postForm(agent, "/sign-out", { csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe(`${PAGES}/signed-out`);
    expect((await agent.get("/get-session")).body).toBeNull();
  });

  it("refuses a wrong password with the API's words, keeps the identifier, and starts no session", async () => {
    const { email } = await signUp(t);
    const agent = t.agent();
    const res = await submitPage(agent, "/sign-in", { identifier: email, password: "wrong-password-here" });
    expect(res.status).toBe(401);
    expect(alertText(res)).toBe("The email address or password is not right.");
    expect(res.text).toContain(`value="${email}"`);
    expect(sessionCookie(res.setCookies)).toBeUndefined();
  });

  it("answers an unknown address exactly as a wrong password", async () => {
    const agent = t.agent();
    const res = await submitPage(agent, "/sign-in", {
      identifier: "nobody@example.com",
      password: "wrong-password-here",
    });
    expect(res.status).toBe(401);
    expect(alertText(res)).toBe("The email address or password is not right.");
  });

  it("returns to a trusted URL after sign-in, and drops an untrusted one", async () => {
    const { email, password } = await signUp(t);
    const trusted = "https://app.example.com/after?x=1";
    const res = await submitPage(t.agent(), "/sign-in", { identifier: email, password, redirect: trusted });
    expect(res.headers.get("location")).toBe(trusted);
    for (const hostile of [...HOSTILE_RETURN_ADDRESSES, "data:text/html,hi", "/%2f%2fevil.example.com"]) {
      const refused = await submitPage(t.agent(), "/sign-in", { identifier: email, password, redirect: hostile });
      expect(refused.status, hostile).toBe(303);
      expect(refused.headers.get("location"), hostile).toBe("http://localhost:3000/account");
    }
  });

  it("renders every reflected value as text, never as markup", async () => {
    const agent = t.agent();
    const hostile = `"><script>alert(1)</script><img src=x onerror=alert(1)>`;
    const res = await submitPage(agent, "/sign-in", { identifier: hostile, password: "whatever-password" });
    expect(res.text).not.toContain("<script>alert(1)");
    expect(res.text).not.toContain("<img src=x");
    const error = await agent.get(`${PAGES}/error`, { query: { error: "<b>bold</b>" } });
    expect(error.text).not.toContain("<b>bold</b>");
    expect(error.text).toContain("&lt;b&gt;bold&lt;/b&gt;");
    // The state block the browser hydrates from cannot end its element either: the module script's end
    // and the state block's own end are the only two.
    expect(error.text.match(/<\/script>/g)?.length).toBe(2);
  });
});

describe("pages: the attacker's side", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("refuses a form without this browser's token, and signs nobody in", async () => {
    const { email, password } = await signUp(t);
    const agent = t.agent();
    await formTokenOf(agent, "/sign-in");
    const missing = await postForm(agent, "/sign-in", { identifier: email, password });
    expect(missing.status).toBe(403);
    expect(alertText(missing)).toBe("This form has expired. Please send it again.");
    expect(sessionCookie(missing.setCookies)).toBeUndefined();
    // Another browser's token is no good with this browser's cookie.
    const other = await formTokenOf(t.agent(), "/sign-in");
    const foreign = await postForm(agent, "/sign-in", { csrf: other, identifier: email, password });
    expect(foreign.status).toBe(403);
    expect(sessionCookie(foreign.setCookies)).toBeUndefined();
  });

  it("refuses a form posted from another site even with a valid token (login CSRF)", async () => {
    const { email, password } = await signUp(t);
    const agent = t.agent();
    const csrf = await formTokenOf(agent, "/sign-in");
    for (const origin of ["https://evil.example.com", "null"]) {
      const res = await postForm(agent, "/sign-in", { csrf, identifier: email, password }, { origin });
      expect(res.status, origin).toBe(403);
      expect(alertText(res)).toBe("This form was sent from another site and was refused.");
      expect(sessionCookie(res.setCookies)).toBeUndefined();
    }
  });

  it("refuses control characters and oversized fields, and anything but a form body", async () => {
    const agent = t.agent();
    const csrf = await formTokenOf(agent, "/sign-in");
    const nul = await postForm(agent, "/sign-in", { csrf, identifier: "a\u0000@example.com", password: "x" });
    expect(nul.status).toBe(403);
    const huge = await postForm(agent, "/sign-in", { csrf, identifier: "a".repeat(10_000), password: "x" });
    expect(huge.status).toBe(403);
    const json = await agent.post(`${PAGES}/sign-in`, { csrf, identifier: "a@example.com", password: "x" });
    expect(json.status).toBe(403);
    const body = await postForm(agent, "/sign-in", { csrf, identifier: "x".repeat(70_000), password: "x" });
    expect(body.status).toBe(413);
  });

  it("sends a page's security headers: no framing, no inline code, no referrer to other origins", async () => {
    const page = await t.agent().get(`${PAGES}/sign-in`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "object-src 'none'",
      "form-action 'self'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain("unsafe");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).not.toMatch(/<script(?![^>]*(\bsrc=|type="application\/json"))/);
    expect(page.text).not.toMatch(/\sstyle=/);
  });

  it("serves the assets named by their hash, compressed and cached for good; nothing else", async () => {
    const agent = t.agent();
    const page = await agent.get(`${PAGES}/sign-in`);
    const script = page.text.match(/src="(\/account\/assets\/pages-[0-9a-f]+\.js)"/)?.[1] as string;
    const brotli = await agent.get(script, { headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(brotli.headers.get("content-type")).toContain("javascript");
    // The budget the pages promise (docs/pages.md): the sign-in page's script ≤ 100 KB and its styles ≤ 20 KB,
    // compressed as browsers fetch them.
    const scriptBytes = (
      await t.app.request(`http://localhost${script}`, { headers: { "accept-encoding": "br" } })
    ).arrayBuffer();
    expect((await scriptBytes).byteLength).toBeLessThanOrEqual(100 * 1024);
    const styles = [...page.text.matchAll(/href="(\/account\/assets\/[^"]+\.css)"/g)].map((m) => m[1] as string);
    let styleBytes = 0;
    for (const href of styles)
      styleBytes += (
        await (await t.app.request(`http://localhost${href}`, { headers: { "accept-encoding": "br" } })).arrayBuffer()
      ).byteLength;
    expect(styleBytes).toBeLessThanOrEqual(20 * 1024);
    expect((await agent.get(`${PAGES}/assets/pages-000000000000.js`)).status).toBe(404);
    expect((await agent.get(`${PAGES}/assets/..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it("speaks the browser's language: German for de-AT, English otherwise", async () => {
    const de = await t.agent().get(`${PAGES}/sign-in`, { headers: { "accept-language": "fr;q=0.9, de-AT;q=0.8" } });
    expect(de.text).toContain('<html lang="de" dir="ltr"');
    expect(de.text).toContain(">Anmelden</h1>");
    const en = await t.agent().get(`${PAGES}/sign-in`, { headers: { "accept-language": "fr" } });
    expect(en.text).toContain('<html lang="en"');
  });
});

describe("pages: limits and switches", () => {
  it("counts a page's form posts against the API route's rate limit, both ways", async () => {
    const t = await createTestContext({ env: { AUTH_RATE_LIMIT: "on" } });
    try {
      const agent = t.agent();
      const csrf = await formTokenOf(agent, "/sign-in");
      const fields = { csrf, identifier: "someone@example.com", password: "wrong-password-here" };
      for (let i = 0; i < 2; i++) expect((await postForm(agent, "/sign-in", fields)).status).toBe(401);
      expect(
        (await agent.post("/sign-in/email", { email: "someone@example.com", password: "wrong-pass" })).status,
      ).toBe(401);
      const limited = await postForm(agent, "/sign-in", fields);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(limited.headers.get("content-type")).toContain("text/html");
      expect(alertText(limited)).toBe("Too many attempts. Wait a moment and try again.");
    } finally {
      await t.close();
    }
  });

  it("draws the operator's branding: app name, logo, primary colour and their own CSS file, all from the daemon", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-theme-"));
    const cssFile = join(dir, "brand.css");
    writeFileSync(cssFile, ".authd-card { border: 3px solid rebeccapurple; }");
    const t = await createTestContext({
      env: { AUTH_APP_NAME: "Acme <Widgets>" },
      config: {
        pages: { cssFile, primaryColor: "#0a7d4f", logoURL: "https://cdn.acme.example/logo.svg", colorScheme: "dark" },
      },
    });
    try {
      const agent = t.agent();
      const page = await agent.get(`${PAGES}/sign-in`);
      expect(page.text).toContain('data-color-scheme="dark"');
      expect(page.text).toContain(
        '<img class="authd-logo" src="https://cdn.acme.example/logo.svg" alt="Acme &lt;Widgets&gt;"/>',
      );
      const styles = [...page.text.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1] as string);
      expect(styles).toHaveLength(3);
      const bodies = await Promise.all(styles.map(async (href) => (await agent.get(href)).text));
      expect(bodies[1]).toBe(":root{--authd-primary:#0a7d4f}");
      // The operator's file comes last, so it wins over authd's own rules.
      expect(bodies[2]).toBe(".authd-card { border: 3px solid rebeccapurple; }");
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serves no page when pages are off", async () => {
    const t = await createTestContext({ env: { AUTH_PAGES: "off" } });
    try {
      expect((await t.agent().get(`${PAGES}/sign-in`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("serves the pages under another base path", async () => {
    const t = await createTestContext({ env: { AUTH_PAGES_BASE_PATH: "/login" } });
    try {
      const page = await t.app.request("http://localhost/login/sign-in");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('action="/login/sign-in"');
      expect((await t.app.request("http://localhost/account/sign-in")).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
