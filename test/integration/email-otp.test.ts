import { describe, expect, it } from "vitest";
import { readLiveCode } from "../../src/services/email-otp/email-otp.ts";
import { updateUser } from "../../src/services/users.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedCode, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { captureLog } from "../helpers/security-log.ts";

const log = captureLog();
const NEW_PASSWORD = "another-horse-battery";

describeEachDialect("email OTP", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect, env: { AUTH_EMAIL_OTP: "on" }, logger: log.logger }, (ready) => ({ t, mailbox } = ready));

  /** Ask for a code of `type` for `email` and return it as mailed. */
  async function sendCode(email: string, type = "sign-in") {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const res = await t.agent().post("/email-otp/send-verification-otp", { email, type });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.setCookies).toEqual([]);
    return mailedCode(mailbox, email, type, seen);
  }

  it("mails a 6-digit sign-in code, stored only as a keyed hash, that signs in once", async () => {
    const account = await signUp(t);
    const code = await sendCode(account.email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.ctx.db
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "like", "email-otp:%")
      .execute();
    const stored = rows.find((row) => row.identifier === `email-otp:sign-in:${account.email}`);
    expect(stored).toBeDefined();
    expect(stored?.value.split(":")).not.toContain(code);
    expect(Number(stored?.expiresAt) - Number(stored?.createdAt)).toBe(300_000);

    log.clear();
    const browser = t.agent();
    const res = await browser.post("/sign-in/email-otp", { email: account.email, otp: code });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: account.user.id, email: account.email });
    expect(browser.cookie("session_token")?.split(".")[0]).toBe(res.body.token);
    expect((await browser.get("/get-session")).body.user).toMatchObject({ id: account.user.id, emailVerified: true });
    expect(log.events("sign_in")).toMatchObject([{ outcome: "success", method: "email-otp", userId: account.user.id }]);
    log.expectNoSecrets(code, res.body.token);

    const replay = await t.agent().post("/sign-in/email-otp", { email: account.email, otp: code });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("signs an unknown address up with a code: verified, empty name, no password", async () => {
    const email = "Fresh.Code@Example.com";
    const code = await sendCode(email);
    log.clear();
    const browser = t.agent();
    const res = await browser.post("/sign-in/email-otp", { email: email.toLowerCase(), otp: code });
    expect(res.status).toBe(200);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email: email.toLowerCase(), name: "", emailVerified: true });
    expect(log.events("sign_up")).toMatchObject([{ method: "email-otp", userId: session.body.user.id }]);
    expect((await browser.get("/list-accounts")).body).toEqual([]);
  });

  it("counts three wrong tries, then deletes the code even for the right one", async () => {
    const account = await signUp(t);
    const code = await sendCode(account.email);
    const wrong = code === "000000" ? "000001" : "000000";
    const answers = [];
    for (const otp of [wrong, wrong, wrong, code, code])
      answers.push(await t.agent().post("/sign-in/email-otp", { email: account.email, otp }));
    expect(answers.map((res) => [res.status, res.body.code])).toEqual([
      [400, "INVALID_OTP"],
      [400, "INVALID_OTP"],
      [400, "INVALID_OTP"],
      [403, "TOO_MANY_ATTEMPTS"],
      [400, "INVALID_OTP"],
    ]);
    const fresh = await sendCode(account.email);
    expect((await t.agent().post("/sign-in/email-otp", { email: account.email, otp: fresh })).status).toBe(200);
  });

  it("gives exactly one session to 16 concurrent uses of one code", async () => {
    const account = await signUp(t);
    const code = await sendCode(account.email);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => t.agent().post("/sign-in/email-otp", { email: account.email, otp: code })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    const sessions = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", account.user.id).execute();
    // The sign-up's session went when the first proof claimed the never-verified account.
    expect(sessions).toHaveLength(1);
  });

  it("lets 16 concurrent wrong guesses count no more than the allowed tries, and kills the code", async () => {
    const account = await signUp(t);
    const code = await sendCode(account.email);
    const guesses = Array.from({ length: 16 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(
      guesses.map((otp) => t.agent().post("/sign-in/email-otp", { email: account.email, otp })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(0);
    expect(answers.filter((res) => res.body.code === "TOO_MANY_ATTEMPTS").length).toBeGreaterThanOrEqual(1);
    expect(await readLiveCode(t.ctx, account.email, "sign-in")).toBeNull();
  });

  it("answers an expired code OTP_EXPIRED once, then INVALID_OTP", async () => {
    const account = await signUp(t);
    const code = await sendCode(account.email);
    t.clock.advance(301_000);
    const expired = await t.agent().post("/sign-in/email-otp", { email: account.email, otp: code });
    expect(expired.body).toEqual({ code: "OTP_EXPIRED", message: "otp expired" });
    const later = await t.agent().post("/sign-in/email-otp", { email: account.email, otp: code });
    expect(later.body.code).toBe("INVALID_OTP");
  });

  it("verifies an address with an email-verification code, without a session", async () => {
    const account = await signUp(t);
    const signInCode = await sendCode(account.email);
    const code = await sendCode(account.email, "email-verification");
    const crossed = await t.agent().post("/email-otp/verify-email", { email: account.email, otp: signInCode });
    expect(crossed.body.code).toBe("INVALID_OTP");
    log.clear();
    const res = await t.agent().post("/email-otp/verify-email", { email: account.email, otp: code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, token: null, user: { id: account.user.id, emailVerified: true } });
    expect(res.setCookies).toEqual([]);
    expect(log.events("email_verified")).toMatchObject([{ method: "email-otp", userId: account.user.id }]);
    expect((await account.agent.get("/get-session")).body.user.emailVerified).toBe(true);
  });

  it("resets a password with a code, checking the length before using it", async () => {
    const account = await signUp(t);
    // Verified: the first proof of a never-verified address also claims the account (account-claim.test.ts).
    await updateUser(t.ctx, account.user.id, { emailVerified: true });
    await t.ctx.settle();
    const seen = mailCount(mailbox, account.email);
    expect((await t.agent().post("/forget-password/email-otp", { email: account.email })).body).toEqual({
      success: true,
    });
    const code = await mailedCode(mailbox, account.email, "forget-password", seen);
    const short = await t
      .agent()
      .post("/email-otp/reset-password", { email: account.email, otp: code, password: "short" });
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const long = await t.agent().post("/email-otp/reset-password", {
      email: account.email,
      otp: code,
      password: "x".repeat(129),
    });
    expect(long.body.code).toBe("PASSWORD_TOO_LONG");
    log.clear();
    const res = await t
      .agent()
      .post("/email-otp/reset-password", { email: account.email, otp: code, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(log.events("password_reset")).toMatchObject([{ method: "email-otp", userId: account.user.id }]);
    const signIn = (password: string) => t.agent().post("/sign-in/email", { email: account.email, password });
    expect((await signIn(account.password)).status).toBe(401);
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);
    expect((await account.agent.get("/get-session")).body).not.toBeNull();
    const again = await t
      .agent()
      .post("/email-otp/reset-password", { email: account.email, otp: code, password: "third-password-1" });
    expect(again.body.code).toBe("INVALID_OTP");
  });

  it("answers unknown addresses like known ones and mails them no reset code", async () => {
    const stranger = "stranger@example.com";
    expect((await t.agent().post("/forget-password/email-otp", { email: stranger })).body).toEqual({ success: true });
    const viaSend = await t
      .agent()
      .post("/email-otp/send-verification-otp", { email: stranger, type: "forget-password" });
    expect(viaSend.body).toEqual({ success: true });
    await t.ctx.settle();
    expect(mailCount(mailbox, stranger)).toBe(0);
    const reset = await t
      .agent()
      .post("/email-otp/reset-password", { email: stranger, otp: "123456", password: NEW_PASSWORD });
    expect(reset.body.code).toBe("INVALID_OTP");
  });

  it("creates and reads back codes for the server only", async () => {
    const account = await signUp(t);
    const made = await t.server().post("/email-otp/create-verification-otp", { email: account.email, type: "sign-in" });
    expect(made.body).toMatch(/^\d{6}$/);
    const read = await t.server().post("/email-otp/get-verification-otp", { email: account.email, type: "sign-in" });
    expect(read.body).toEqual({ otp: made.body });
    const other = await t
      .server()
      .post("/email-otp/get-verification-otp", { email: account.email, type: "forget-password" });
    expect(other.body).toEqual({ otp: null });
    for (const path of ["/email-otp/create-verification-otp", "/email-otp/get-verification-otp"]) {
      const res = await t.agent().post(path, { email: account.email, type: "sign-in" });
      expect(res.status).toBe(404);
    }
    expect((await t.agent().post("/sign-in/email-otp", { email: account.email, otp: made.body })).status).toBe(200);
  });
});

describeEachDialect("email OTP switches", (dialect) => {
  it("answers 404 on every path while AUTH_EMAIL_OTP is off (the default)", async () => {
    const t = await createTestContext({ dialect });
    try {
      for (const path of [
        "/email-otp/send-verification-otp",
        "/sign-in/email-otp",
        "/email-otp/verify-email",
        "/forget-password/email-otp",
        "/email-otp/reset-password",
      ])
        expect((await t.agent().post(path, { email: "a@example.com", type: "sign-in", otp: "1" })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  describe("with sign-up by code off", () => {
    let mailbox: Mailbox;
    let t: TestContext;
    useMailContext(
      { dialect, env: { AUTH_EMAIL_OTP: "on" }, config: { emailOTP: { disableSignUp: true } } },
      (ready) => ({ t, mailbox } = ready),
    );

    it("answers unknown addresses the same, mails them nothing, and signs nobody up", async () => {
      const res = await t
        .agent()
        .post("/email-otp/send-verification-otp", { email: "new@example.com", type: "sign-in" });
      expect(res.body).toEqual({ success: true });
      await t.ctx.settle();
      expect(mailCount(mailbox, "new@example.com")).toBe(0);
      const signIn = await t.agent().post("/sign-in/email-otp", { email: "new@example.com", otp: "123456" });
      expect(signIn.body.code).toBe("INVALID_OTP");
    });
  });
});
