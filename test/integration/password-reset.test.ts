import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetIdentifier } from "../../src/services/password-reset.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

const SAME_ANSWER = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
};

describeEachDialect("password reset", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  /** Sign up, ask for a reset, and return the token read from the mailed link. */
  async function requestReset(path = "/request-password-reset", redirectTo = "/reset") {
    const account = await signUp(t);
    await t.ctx.settle();
    const seen = mailCount(mailbox, account.email);
    const res = await t.agent().post(path, { email: account.email, redirectTo });
    expect(res.body).toEqual(SAME_ANSWER);
    const link = await mailedLink(mailbox, account.email, "reset", seen);
    return { ...account, link, token: link.pathname.split("/").pop() as string };
  }

  const signInStatus = async (email: string, password: string) =>
    (await t.agent().post("/sign-in/email", { email, password })).status;

  it("mails a 24-character single-use link, stored only as a hash, that sets a new password", async () => {
    const { email, password, link, token } = await requestReset();
    expect(link.pathname).toMatch(/^\/api\/auth\/reset-password\/[A-Za-z0-9]{24}$/);
    expect(link.searchParams.get("callbackURL")).toBe("/reset");
    const stored = await t.ctx.db
      .selectFrom("verification")
      .select(["identifier", "expiresAt", "createdAt"])
      .where("identifier", "=", resetIdentifier(token))
      .executeTakeFirstOrThrow();
    expect(stored.identifier).not.toContain(token);
    expect(Number(stored.expiresAt) - Number(stored.createdAt)).toBe(3600 * 1000);

    const res = await t.agent().post("/reset-password", { token, newPassword: "brand-new-password" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(await signInStatus(email, "brand-new-password")).toBe(200);
    expect(await signInStatus(email, password)).toBe(401);

    const again = await t.agent().post("/reset-password", { token, newPassword: "another-password-1" });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
  });

  it("answers /forget-password and unknown addresses the same, mailing nobody", async () => {
    await requestReset("/forget-password");
    const unknown = await t.agent().post("/forget-password", { email: "no.such.user@example.com" });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(SAME_ANSWER);
    await t.ctx.settle();
    expect(mailbox.to("no.such.user@example.com")).toHaveLength(0);
    const invalid = await t.agent().post("/request-password-reset", { email: "not an email" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
  });

  it("redirects the mailed link to the callback with the token, or with error=INVALID_TOKEN", async () => {
    const { link, token } = await requestReset("/request-password-reset", "http://localhost:3000/reset?step=1");
    const ok = await t.agent().get(pathOf(link));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`http://localhost:3000/reset?step=1&token=${token}`);

    const bad = await t.agent().get("/reset-password/abcdefghijklmnopqrstuvwx", { query: { callbackURL: "/reset" } });
    expect(bad.status).toBe(302);
    expect(bad.headers.get("location")).toBe("http://localhost:3000/reset?error=INVALID_TOKEN");

    t.clock.advance(3601 * 1000);
    const expired = await t.agent().get(pathOf(link));
    expect(expired.headers.get("location")).toBe("http://localhost:3000/reset?step=1&error=INVALID_TOKEN");
    const expiredPost = await t.agent().post("/reset-password", { token, newPassword: "too-late-password" });
    expect(expiredPost.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
  });

  it("answers a followed link without callbackURL with 400 and redirects nowhere (issue 15, item 21)", async () => {
    const { token } = await requestReset("/request-password-reset", "/reset");
    for (const path of [`/reset-password/${token}`, "/reset-password/abcdefghijklmnopqrstuvwx"]) {
      const res = await t.agent().get(path);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "callbackURL is required" });
      expect(res.headers.get("location")).toBeNull();
    }
    // The token was not spent by the refused request.
    const ok = await t.agent().get(`/reset-password/${token}`, { query: { callbackURL: "/reset" } });
    expect(ok.headers.get("location")).toBe(`http://localhost:3000/reset?token=${token}`);
  });

  it("refuses an untrusted redirectTo with 403 and mails nothing", async () => {
    const { email } = await signUp(t);
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const res = await t
      .agent()
      .post("/request-password-reset", { email, redirectTo: "https://evil.example.net/reset" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_REDIRECTURL", message: "Invalid redirectURL" });
    await t.ctx.settle();
    expect(mailCount(mailbox, email)).toBe(seen);
  });

  it("takes the token from the query, checks the length first, and refuses a missing token", async () => {
    const { email, token } = await requestReset();
    const short = await t.agent().post("/reset-password", { newPassword: "short" }, { query: { token } });
    expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await t.agent().post("/reset-password", { newPassword: "x".repeat(129) }, { query: { token } });
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    const missing = await t.agent().post("/reset-password", { newPassword: "long-enough-password" });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("INVALID_TOKEN");
    const ok = await t.agent().post("/reset-password", { newPassword: "from-the-query-1" }, { query: { token } });
    expect(ok.status).toBe(200);
    expect(await signInStatus(email, "from-the-query-1")).toBe(200);
  });

  it("creates a credential account for a user who had no password", async () => {
    const { email, user, token } = await requestReset();
    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    expect(await signInStatus(email, "whatever-password")).toBe(401);
    expect((await t.agent().post("/reset-password", { token, newPassword: "first-password-1" })).status).toBe(200);
    const accounts = await t.ctx.db
      .selectFrom("account")
      .select(["providerId", "accountId"])
      .where("userId", "=", user.id)
      .execute();
    expect(accounts).toEqual([{ providerId: "credential", accountId: user.id }]);
    expect(await signInStatus(email, "first-password-1")).toBe(200);
  });

  it("lets exactly one of 16 concurrent resets with one token succeed, and only its password works", async () => {
    const { email, token } = await requestReset();
    const passwords = Array.from({ length: 16 }, (_, i) => `concurrent-password-${i}`);
    const results = await Promise.all(
      passwords.map((newPassword) => t.agent().post("/reset-password", { token, newPassword })),
    );
    const winners = results.map((r, i) => (r.status === 200 ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    for (const r of results)
      if (r.status !== 200) expect(r.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect(await signInStatus(email, passwords[winners[0]])).toBe(200);
    const loser = passwords[(winners[0] + 1) % passwords.length];
    expect(await signInStatus(email, loser)).toBe(401);
  });

  it("makes every other outstanding reset link of the user useless once one is used", async () => {
    const { email, token } = await requestReset();
    const seen = mailCount(mailbox, email);
    await t.agent().post("/request-password-reset", { email });
    const second = (await mailedLink(mailbox, email, "reset", seen)).pathname.split("/").pop() as string;
    expect(second).not.toBe(token);
    expect((await t.agent().post("/reset-password", { token: second, newPassword: "second-link-pass" })).status).toBe(
      200,
    );
    expect((await t.agent().post("/reset-password", { token, newPassword: "first-link-pass" })).status).toBe(400);
  });
});

describe("password reset with revokeSessionsOnPasswordReset", () => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext(
    { config: { emailAndPassword: { revokeSessionsOnPasswordReset: true } } },
    (ready) => ({ t, mailbox } = ready),
  );

  it("signs the user out everywhere", async () => {
    const { agent, email } = await signUp(t);
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body).not.toBeNull();
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    await t.agent().post("/request-password-reset", { email });
    const token = (await mailedLink(mailbox, email, "reset", seen)).pathname.split("/").pop() as string;
    expect((await t.agent().post("/reset-password", { token, newPassword: "after-reset-password" })).status).toBe(200);
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
  });
});

describe("password reset with email and password disabled", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { emailAndPassword: { enabled: false } } });
  });
  afterAll(() => t.close());

  it("answers Reset password isn't enabled", async () => {
    const res = await t.agent().post("/request-password-reset", { email: "a@example.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "RESET_PASSWORD_ISNT_ENABLED", message: "Reset password isn't enabled" });
    const reset = await t.agent().post("/reset-password", { token: "x", newPassword: "long-enough-password" });
    expect(reset.body.code).toBe("RESET_PASSWORD_ISNT_ENABLED");
  });
});
