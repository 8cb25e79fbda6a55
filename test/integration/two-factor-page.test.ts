import { describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { alertText, browse, formTokenOf, hiddenFields, PAGES, postForm } from "../helpers/pages.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// The second-factor page (issue 28) as a browser without JavaScript uses it: the sign-in page's 303 lands
// here with the challenge cookie, and each form (authenticator code, code by mail, backup code, "trust
// this browser") posts to a page route that runs the API's own check. Then the attacker's side: forged and
// foreign forms, a missing, forged or expired challenge, a replayed backup code, and the limits and the
// account's lock shared with the API.

const APP = "https://app.example.com";
const CODE_LINE = /^(?:[^\d\r\n]*[:\s])?(\d{6})[ \t]*\r?$/m;

const sessionCookie = (setCookies: string[]) =>
  setCookies.find(
    (line) => line.startsWith("better-auth.session_token=") && !line.startsWith("better-auth.session_token=;"),
  );
const trustCookie = (setCookies: string[]) => setCookies.find((line) => line.startsWith("better-auth.trust_device="));

/** A wrong TOTP code: the right one for an hour ago (never accepted now). */
const wrongCode = (key: Buffer, now: number) => totp(key, now - 3_600_000);

interface Enrolled {
  email: string;
  password: string;
  key: Buffer;
  backupCodes: string[];
}

async function enrolledUser(t: TestContext): Promise<Enrolled> {
  const { agent, email, password } = await signUp(t);
  const { key, backupCodes } = await enrol(agent, password, t.clock.now);
  // The enrolment used this step's code: the sign-ins below use a newer one.
  t.clock.advance(30_000);
  return { email, password, key, backupCodes };
}

/** Sign in on the sign-in page (no JavaScript) up to the second factor; the agent holds the challenge. */
async function challengedOnPage(t: TestContext, user: Enrolled, redirect?: string): Promise<Agent> {
  const agent = t.agent();
  const csrf = await formTokenOf(agent, "/sign-in");
  const fields = { csrf, identifier: user.email, password: user.password, ...(redirect ? { redirect } : {}) };
  const res = await postForm(agent, "/sign-in", fields);
  expect(res.status).toBe(303);
  const expected = redirect ? `${PAGES}/two-factor?redirect=${encodeURIComponent(redirect)}` : `${PAGES}/two-factor`;
  expect(res.headers.get("location")).toBe(expected);
  expect(sessionCookie(res.setCookies)).toBeUndefined();
  return agent;
}

/** Load the two-factor page (as `query` asks) and post its form to `route` with `fields`. */
async function postOnPage(agent: Agent, route: string, fields: Record<string, string>, query = "") {
  const page = await browse(agent, `${PAGES}/two-factor${query}`);
  expect(page.status).toBe(200);
  return postForm(agent, route, { ...hiddenFields(page.text), ...fields });
}

describeEachDialect("two-factor page without JavaScript", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect, env: { AUTH_TRUSTED_ORIGINS: APP } }, (ready) => ({ t, mailbox } = ready));

  it("offers the authenticator code first, as a one-time code with a numeric keyboard", async () => {
    const agent = await challengedOnPage(t, await enrolledUser(t));
    const page = await browse(agent, `${PAGES}/two-factor`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/account/two-factor"');
    const input = page.text.match(/<input[^>]*name="code"[^>]*>/)?.[0] ?? "";
    expect(input).toContain('autoComplete="one-time-code"');
    expect(input).toContain('inputMode="numeric"');
    expect(page.text).toContain('name="trustDevice"');
    expect(page.text).toContain('href="/account/two-factor?method=mail"');
    expect(page.text).toContain('href="/account/two-factor?method=backup"');
  });

  it("completes the sign-in with the authenticator code: the session, trust_device, and back to the app", async () => {
    const user = await enrolledUser(t);
    const returnTo = `${APP}/after?x=1`;
    const agent = await challengedOnPage(t, user, returnTo);
    const fields = { code: totp(user.key, t.clock.now), trustDevice: "on" };
    const done = await postOnPage(agent, "/two-factor", fields, `?redirect=${encodeURIComponent(returnTo)}`);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${APP}/after?x=1`);
    expect(sessionCookie(done.setCookies)).toBeDefined();
    expect(trustCookie(done.setCookies)).toMatch(/Max-Age=2592000/);
    expect((await agent.get("/get-session")).body.user.email).toBe(user.email);
    // Back on the page (the browser's back button): the challenge is used up, and the page says who is signed in.
    expect((await browse(agent, `${PAGES}/two-factor`)).text).toContain(`Signed in as ${user.email}.`);
    // The trusted browser skips the second factor next time, as with the API.
    await agent.post("/sign-out", {});
    const again = await postForm(agent, "/sign-in", {
      csrf: await formTokenOf(agent, "/sign-in"),
      identifier: user.email,
      password: user.password,
    });
    expect([again.status, again.headers.get("location")]).toEqual([303, "http://localhost:3000/account"]);
  });

  it("shows a wrong code beside its field, starts no session, and takes the right one after", async () => {
    const user = await enrolledUser(t);
    const agent = await challengedOnPage(t, user);
    const wrong = await postOnPage(agent, "/two-factor", { code: wrongCode(user.key, t.clock.now) });
    expect(wrong.status).toBe(401);
    expect(alertText(wrong)).toBe("This code is not right. Check it and try again.");
    expect(sessionCookie(wrong.setCookies)).toBeUndefined();
    const right = await postOnPage(agent, "/two-factor", { code: totp(user.key, t.clock.now) });
    expect([right.status, right.headers.get("location")]).toEqual([303, "http://localhost:3000/account"]);
    expect(trustCookie(right.setCookies)).toBeUndefined();
  });

  it("mails a code on request, then takes it", async () => {
    const user = await enrolledUser(t);
    const agent = await challengedOnPage(t, user);
    const offer = await browse(agent, `${PAGES}/two-factor?method=mail`);
    expect(offer.text).toContain('action="/account/two-factor/send-code"');
    expect(offer.text).not.toContain('name="code"');
    const sent = await postOnPage(agent, "/two-factor/send-code", {}, "?method=mail");
    expect([sent.status, sent.headers.get("location")]).toEqual([303, `${PAGES}/two-factor?method=mail&sent=1`]);
    const mail = await mailbox.waitFor(user.email, CODE_LINE);
    const code = (mail.text.match(CODE_LINE) as RegExpMatchArray)[1];
    const page = await browse(agent, `${PAGES}/two-factor?method=mail&sent=1`);
    expect(page.text).toContain("We have sent a code to the email address of your account.");
    expect(page.text).toContain('action="/account/two-factor/mailed-code"');
    const done = await postForm(agent, "/two-factor/mailed-code", { ...hiddenFields(page.text), code });
    expect([done.status, done.headers.get("location")]).toEqual([303, "http://localhost:3000/account"]);
    expect((await agent.get("/get-session")).body.user.email).toBe(user.email);
  });

  it("takes a backup code once: replayed in the next sign-in it is refused", async () => {
    const user = await enrolledUser(t);
    const first = await challengedOnPage(t, user);
    const done = await postOnPage(first, "/two-factor/backup-code", { code: user.backupCodes[0] }, "?method=backup");
    expect(done.status).toBe(303);
    expect(sessionCookie(done.setCookies)).toBeDefined();
    const second = await challengedOnPage(t, user);
    const replayed = await postOnPage(
      second,
      "/two-factor/backup-code",
      { code: user.backupCodes[0] },
      "?method=backup",
    );
    expect(replayed.status).toBe(401);
    expect(alertText(replayed)).toBe("This backup code is not right, or it has been used already.");
    expect(sessionCookie(replayed.setCookies)).toBeUndefined();
  });

  it("speaks German to a German browser", async () => {
    const agent = await challengedOnPage(t, await enrolledUser(t));
    const page = await agent.get(`${PAGES}/two-factor`, { headers: { "accept-language": "de-DE" } });
    expect(page.text).toContain(">Bestätigung in zwei Schritten</h1>");
    expect(page.text).toContain("Diesem Browser vertrauen");
  });
});

describe("two-factor page: the attacker's side", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ env: { AUTH_TRUSTED_ORIGINS: APP } }, (ready) => ({ t, mailbox } = ready));

  it("refuses a form without this browser's token or from another site, and runs no check", async () => {
    const user = await enrolledUser(t);
    const agent = await challengedOnPage(t, user);
    const code = totp(user.key, t.clock.now);
    const missing = await postForm(agent, "/two-factor", { code });
    expect(missing.status).toBe(403);
    expect(alertText(missing)).toBe("This form has expired. Please send it again.");
    const csrf = await formTokenOf(agent, "/two-factor");
    for (const origin of ["https://evil.example.com", "null"]) {
      const foreign = await postForm(agent, "/two-factor", { csrf, code }, { origin });
      expect(foreign.status, origin).toBe(403);
      expect(sessionCookie(foreign.setCookies)).toBeUndefined();
    }
    // Nothing ran: the code still completes the challenge.
    expect((await postForm(agent, "/two-factor", { csrf, code })).status).toBe(303);
  });

  it("asks to sign in again without a challenge, with a forged one, or an expired one", async () => {
    const bare = t.agent();
    const page = await browse(bare, `${PAGES}/two-factor`);
    expect(page.status).toBe(401);
    expect(page.text).toContain("Your sign-in took too long or is already finished. Please sign in again.");
    expect(page.text).toContain('href="/account/sign-in"');
    const csrf = await formTokenOf(bare, "/sign-in");
    for (const route of [
      "/two-factor",
      "/two-factor/send-code",
      "/two-factor/mailed-code",
      "/two-factor/backup-code",
    ]) {
      const res = await postForm(bare, route, { csrf, code: "123456" });
      expect(res.status, route).toBe(401);
      expect(res.text, route).toContain("Please sign in again.");
    }
    const user = await enrolledUser(t);
    const forged = await challengedOnPage(t, user);
    const real = forged.jar.get("better-auth.two_factor") as string;
    forged.jar.set("better-auth.two_factor", `2fa-${"A".repeat(20)}.${real.split(".").slice(1).join(".")}`);
    const forgedAnswer = await postForm(forged, "/two-factor", {
      csrf: await formTokenOf(forged, "/sign-in"),
      code: totp(user.key, t.clock.now),
    });
    expect(forgedAnswer.status).toBe(401);
    expect(sessionCookie(forgedAnswer.setCookies)).toBeUndefined();
    const late = await challengedOnPage(t, user);
    t.clock.advance(181_000);
    const expired = await browse(late, `${PAGES}/two-factor`);
    expect(expired.status).toBe(401);
    expect(expired.text).toContain("Please sign in again.");
  });

  it("drops an untrusted return address and renders hostile values as text", async () => {
    const user = await enrolledUser(t);
    const agent = await challengedOnPage(t, user);
    const page = await browse(agent, `${PAGES}/two-factor?method=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert(1)");
    const fields = { ...hiddenFields(page.text), code: totp(user.key, t.clock.now), redirect: "//evil.example.com" };
    const done = await postForm(agent, "/two-factor", fields);
    expect([done.status, done.headers.get("location")]).toEqual([303, "http://localhost:3000/account"]);
  });

  it("a mailed code's page and the mail are the API's: one mail per send", async () => {
    const user = await enrolledUser(t);
    const agent = await challengedOnPage(t, user);
    await postOnPage(agent, "/two-factor/send-code", {}, "?method=mail");
    await t.ctx.settle();
    expect(mailbox.to(user.email).filter((mail) => CODE_LINE.test(mail.text))).toHaveLength(1);
  });
});

describe("two-factor page: limits shared with the API", () => {
  it("counts the page's wrong codes and the API's toward one lock of the account", async () => {
    const t = await createTestContext({ config: { twoFactor: { maxFailures: 3 } } });
    try {
      const user = await enrolledUser(t);
      const agent = await challengedOnPage(t, user);
      for (let i = 0; i < 2; i++)
        expect((await postOnPage(agent, "/two-factor", { code: wrongCode(user.key, t.clock.now) })).status).toBe(401);
      const api = await agent.post("/two-factor/verify-totp", { code: wrongCode(user.key, t.clock.now) });
      expect(api.status).toBe(401);
      const locked = await postOnPage(agent, "/two-factor", { code: totp(user.key, t.clock.now) });
      expect(locked.status).toBe(429);
      expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(alertText(locked)).toBe("Too many attempts. Wait a moment and try again.");
      expect(sessionCookie(locked.setCookies)).toBeUndefined();
      // And the API sees the page's failures: the right code is refused there too.
      const viaApi = await agent.post("/two-factor/verify-totp", { code: totp(user.key, t.clock.now) });
      expect([viaApi.status, viaApi.body.code]).toEqual([429, "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER"]);
    } finally {
      await t.close();
    }
  });

  it("counts a page's form posts in the API route's rate-limit counter", async () => {
    const t = await createTestContext({ env: { AUTH_RATE_LIMIT: "on" } });
    try {
      const user = await enrolledUser(t);
      const agent = await challengedOnPage(t, user);
      const csrf = await formTokenOf(agent, "/two-factor");
      const wrong = { csrf, code: wrongCode(user.key, t.clock.now) };
      for (let i = 0; i < 2; i++) expect((await postForm(agent, "/two-factor", wrong)).status).toBe(401);
      expect((await agent.post("/two-factor/verify-totp", { code: wrong.code })).status).toBe(401);
      const limited = await postForm(agent, "/two-factor", wrong);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      // Another path has its own counter, as in the API: the backup-code form still answers.
      const backup = await postForm(agent, "/two-factor/backup-code", { csrf, code: "wrong-wrong" });
      expect(backup.status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it("offers only what the configuration serves, and no page when two-factor is off", async () => {
    const t = await createTestContext({ config: { disabledPaths: ["/two-factor/send-otp"] } });
    try {
      const user = await enrolledUser(t);
      const agent = await challengedOnPage(t, user);
      const page = await browse(agent, `${PAGES}/two-factor?method=mail`);
      expect(page.text).not.toContain("method=mail");
      expect(page.text).toContain('action="/account/two-factor"');
      const csrf = hiddenFields(page.text).csrf;
      expect((await postForm(agent, "/two-factor/send-code", { csrf })).status).toBe(404);
    } finally {
      await t.close();
    }
    const off = await createTestContext({ env: { AUTH_TWO_FACTOR: "off" } });
    try {
      expect((await browse(off.agent(), `${PAGES}/two-factor`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
