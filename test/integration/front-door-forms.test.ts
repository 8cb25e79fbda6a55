import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import {
  alertText,
  browse,
  formTokenOf,
  HOSTILE_RETURN_ADDRESSES,
  PAGES,
  postForm,
  submitPage,
} from "../helpers/pages.ts";

// The front door's remaining forms as an attacker tries them (sign-up and sign-out without their token or
// from another site, hostile return addresses), the headers every page carries, and usernames on the
// sign-up and sign-in pages.

const FOREIGN_ORIGINS = ["https://evil.example.com", "null"];
const HOSTILE_RETURNS = HOSTILE_RETURN_ADDRESSES;

const hasSessionCookie = (setCookies: string[]) =>
  setCookies.some((line) => /^better-auth\.session_token=[^;]/.test(line));

describe("pages: sign-up and sign-out, the attacker's side", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_TRUSTED_ORIGINS: "https://app.example.com" } });
  });
  afterAll(() => t.close());

  const userCount = async (email: string) =>
    (await t.ctx.db.selectFrom("user").select("id").where("email", "=", email).execute()).length;

  it("creates no account from a sign-up form without this browser's token or from another site", async () => {
    const email = `forged.${Date.now()}@example.com`;
    const fields = { name: "Forged", email, password: "correct-horse-battery" };
    const agent = t.agent();
    const csrf = await formTokenOf(agent, "/sign-up");
    const missing = await postForm(agent, "/sign-up", fields);
    expect(missing.status).toBe(403);
    expect(alertText(missing)).toBe("This form has expired. Please send it again.");
    const otherBrowser = await formTokenOf(t.agent(), "/sign-up");
    expect((await postForm(agent, "/sign-up", { ...fields, csrf: otherBrowser })).status).toBe(403);
    for (const origin of FOREIGN_ORIGINS) {
      const refused = await postForm(agent, "/sign-up", { ...fields, csrf }, { origin });
      expect(refused.status, origin).toBe(403);
      expect(hasSessionCookie(refused.setCookies)).toBe(false);
    }
    expect(await userCount(email)).toBe(0);
  });

  it("ends no session from a sign-out form without this browser's token or from another site", async () => {
    const { agent } = await signUp(t);
    const csrf = await formTokenOf(agent, "/sign-in");
    expect((await postForm(agent, "/sign-out", {})).status).toBe(403);
    for (const origin of FOREIGN_ORIGINS)
      expect((await postForm(agent, "/sign-out", { csrf }, { origin })).status, origin).toBe(403);
    expect((await agent.get("/get-session")).body?.user).toBeTruthy();
    expect((await postForm(agent, "/sign-out", { csrf })).status).toBe(303);
    expect((await agent.get("/get-session")).body).toBeNull();
  });

  it("follows no hostile return address after a sign-up, a sign-out or a sign-in with a username", async () => {
    const username = `ret_${Date.now().toString(36)}`;
    await signUp(t, { username, password: "correct-horse-battery" });
    for (const hostile of HOSTILE_RETURNS) {
      const email = `returns.${Math.random().toString(36).slice(2, 10)}@example.com`;
      const agent = t.agent();
      const fields = { name: "Returns", email, password: "correct-horse-battery", redirect: hostile };
      const signedUp = await submitPage(agent, "/sign-up", fields);
      expect(signedUp.status, hostile).toBe(303);
      expect(signedUp.headers.get("location"), hostile).toBe("http://localhost:3000/account");
      const out = await postForm(agent, "/sign-out", { csrf: await formTokenOf(agent, "/sign-in"), redirect: hostile });
      expect(out.headers.get("location"), hostile).toBe(`${PAGES}/signed-out`);
      const signedIn = await submitPage(t.agent(), "/sign-in", {
        identifier: username,
        password: "correct-horse-battery",
        redirect: hostile,
      });
      expect(signedIn.headers.get("location"), hostile).toBe("http://localhost:3000/account");
    }
  });

  it("carries the anti-framing and no-referrer headers on every page, whatever it answers", async () => {
    const paths = [
      "/sign-in",
      "/sign-up",
      "/signed-out",
      "/forgot-password",
      "/check-mail?kind=verify",
      "/reset-password?token=abc",
      "/reset-password",
      "/verify-email?token=broken",
      "/delete-account?token=abc",
      "/error?error=INVALID_TOKEN",
      "/invitation/some-id",
      "/two-factor",
      "/magic-link/verify?token=abc",
      "/email-code",
      "/verify-email/code",
      "/no-such-page",
    ];
    for (const path of paths) {
      const answer = await browse(t.agent(), `${PAGES}${path}`);
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(answer.headers.get("referrer-policy"), path).toBe("same-origin");
      // HSTS only where the daemon is reached over https (below).
      expect(answer.headers.get("strict-transport-security"), path).toBeNull();
    }
  });
});

describe("pages over https", () => {
  it("ask browsers to keep to https (HSTS)", async () => {
    const t = await createTestContext({ env: { AUTH_BASE_URL: "https://auth.example.com" } });
    try {
      const page = await t.app.request("https://auth.example.com/account/sign-in", {
        headers: { accept: "text/html" },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await t.close();
    }
  });
});

describeEachDialect("pages: usernames", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("signs up with a username through the sign-up page and signs in with it on the sign-in page", async () => {
    const page = await browse(t.agent(), `${PAGES}/sign-up`);
    expect(page.text).toMatch(/<input(?=[^>]*name="username")(?=[^>]*autocomplete="username")/i);
    const username = `Page_${Date.now().toString(36)}`;
    const email = `${username.toLowerCase()}@example.com`;
    const signedUp = await submitPage(t.agent(), "/sign-up", {
      name: "Named",
      email,
      username,
      password: "correct-horse-battery",
    });
    expect(signedUp.status).toBe(303);
    const row = await t.ctx.db.selectFrom("user").select("username").where("email", "=", email).executeTakeFirst();
    expect(row?.username).toBe(username.toLowerCase());

    const agent = t.agent();
    const signedIn = await submitPage(agent, "/sign-in", { identifier: username, password: "correct-horse-battery" });
    expect(signedIn.status).toBe(303);
    expect(hasSessionCookie(signedIn.setCookies)).toBe(true);
    expect((await agent.get("/get-session")).body.user.email).toBe(email);
  });

  it("answers a wrong password for a username exactly as an unknown username", async () => {
    const username = `known_${Date.now().toString(36)}`;
    await signUp(t, { username });
    const wrong = await submitPage(t.agent(), "/sign-in", { identifier: username, password: "not-the-password" });
    const unknown = await submitPage(t.agent(), "/sign-in", {
      identifier: `${username}x`,
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(alertText(wrong)).toBe(alertText(unknown));
    expect(hasSessionCookie(wrong.setCookies)).toBe(false);
  });

  it("asks for an email address only, and offers no username field, while usernames are off", async () => {
    const off = await createTestContext({ dialect, config: { username: { enabled: false } } });
    try {
      const signIn = await browse(off.agent(), `${PAGES}/sign-in`);
      expect(signIn.text).toContain(">Email address</label>");
      expect(signIn.text).toMatch(/<input(?=[^>]*name="identifier")(?=[^>]*type="email")/);
      expect((await browse(off.agent(), `${PAGES}/sign-up`)).text).not.toContain('name="username"');
    } finally {
      await off.close();
    }
  });
});
