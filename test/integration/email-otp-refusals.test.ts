import { describe, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedCode, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { captureLog } from "../helpers/security-log.ts";

// The attacker's side of email codes (and of magic links where the rules are shared): bans, the per-account
// code throttle, the per-address rate limits, look-alike addresses, cross-site posts and hostile input.

const log = captureLog();

describeEachDialect("email OTP refusals", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext(
    { dialect, env: { AUTH_EMAIL_OTP: "on", AUTH_MAGIC_LINK: "on" }, logger: log.logger },
    (ready) => ({ t, mailbox } = ready),
  );

  async function sendCode(email: string, type = "sign-in") {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    await t.agent().post("/email-otp/send-verification-otp", { email, type });
    return mailedCode(mailbox, email, type, seen);
  }
  const signIn = (email: string, otp: string, from?: string) =>
    t.agent(from ? { from } : {}).post("/sign-in/email-otp", { email, otp });

  it("refuses a banned user with 403 after using the code up", async () => {
    const account = await signUp(t);
    await updateUser(t.ctx, account.user.id, { banned: true, banReason: "spam", banExpires: null });
    const code = await sendCode(account.email);
    log.clear();
    const res = await signIn(account.email, code);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("BANNED_USER");
    expect(res.setCookies).toEqual([]);
    expect(log.events("sign_in")).toMatchObject([{ outcome: "failure", reason: "banned", method: "email-otp" }]);
    expect((await signIn(account.email, code)).body.code).toBe("INVALID_OTP");
  });

  it("throttles code guesses per account across client addresses, apart from passwords", async () => {
    const account = await signUp(t);
    const max = t.ctx.config.accountThrottle.maxFailures;
    let code = "";
    for (let failures = 0; failures < max; failures++) {
      if (failures % 3 === 0) code = await sendCode(account.email);
      const wrong = code === "000000" ? "000001" : "000000";
      expect((await signIn(account.email, wrong, `198.51.100.${failures + 1}`)).status).toBe(400);
    }
    code = await sendCode(account.email);
    log.clear();
    const held = await signIn(account.email, code, "203.0.113.7");
    expect(held.status).toBe(429);
    expect(log.events("sign_in")).toMatchObject([{ outcome: "failure", reason: "throttled" }]);
    await t.ctx.settle();
    expect(log.events("account_throttled")).toMatchObject([{ identifier: "email-code", userId: account.user.id }]);
    // The password is another count: the owner still signs in with it.
    const password = await t.agent().post("/sign-in/email", { email: account.email, password: account.password });
    expect(password.status).toBe(200);
  });

  it("clears the password count when the mailbox of a verified account is proven by a code", async () => {
    const account = await signUp(t);
    await updateUser(t.ctx, account.user.id, { emailVerified: true });
    for (let i = 0; i < t.ctx.config.accountThrottle.maxFailures; i++)
      await t.agent().post("/sign-in/email", { email: account.email, password: "wrong-password-0" });
    const locked = await t.agent().post("/sign-in/email", { email: account.email, password: account.password });
    expect(locked.status).toBe(429);
    expect((await signIn(account.email, await sendCode(account.email))).status).toBe(200);
    const open = await t.agent().post("/sign-in/email", { email: account.email, password: account.password });
    expect(open.status).toBe(200);
  });

  it("mails one address no more than maxFailures links and codes a window, whoever asks", async () => {
    const email = "flooded@example.com";
    const max = t.ctx.config.accountThrottle.maxFailures;
    for (let i = 0; i <= max; i++) {
      const from = t.agent({ from: `192.0.2.${i + 1}` });
      const res =
        i % 2 === 0
          ? await from.post("/email-otp/send-verification-otp", { email, type: "sign-in" })
          : await from.post("/sign-in/magic-link", { email });
      expect(res.status).toBe(200);
    }
    await t.ctx.settle();
    expect(mailCount(mailbox, email)).toBe(max);
    t.clock.advance(t.ctx.config.accountThrottle.window * 1000 + 1000);
    expect((await signIn(email, await sendCode(email))).status).toBe(200);
  });

  it("takes a pre-registered account back with the owner's first code: password removed, sessions revoked", async () => {
    const attacker = await signUp(t, { email: "pre.code@example.com", password: "attacker-password-1" });
    const res = await signIn(attacker.email, await sendCode(attacker.email));
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(attacker.user.id);
    expect((await attacker.agent.get("/get-session?disableCookieCache=true")).body).toBeNull();
    const withPassword = await t
      .agent()
      .post("/sign-in/email", { email: attacker.email, password: "attacker-password-1" });
    expect(withPassword.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  it("keeps a victim's code to the victim's address, not look-alikes", async () => {
    const victim = await signUp(t, { email: "code.victim@example.com" });
    const attacker = await signUp(t, { email: "code.victim+x@example.com" });
    const code = await sendCode("Code.Victim@Example.com");
    expect((await signIn(attacker.email, code)).body.code).toBe("INVALID_OTP");
    expect((await signIn("code.victim@example.co", code)).body.code).toBe("INVALID_OTP");
    const res = await signIn(victim.email, code);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(victim.user.id);
  });

  it("refuses cross-site sign-ins and hostile input", async () => {
    const crossSite = await t
      .agent()
      .post(
        "/sign-in/email-otp",
        { email: "a@example.com", otp: "123456" },
        { headers: { origin: "https://evil.example" } },
      );
    expect(crossSite.body.code).toBe("INVALID_ORIGIN");
    const invalid = [
      ["/email-otp/send-verification-otp", { email: "a@example.com", type: "two-factor" }, "VALIDATION_ERROR"],
      [
        "/email-otp/send-verification-otp",
        { email: "a@example.com\r\nBcc: x@evil.example", type: "sign-in" },
        "VALIDATION_ERROR",
      ],
      ["/email-otp/send-verification-otp", { email: "not an email", type: "sign-in" }, "INVALID_EMAIL"],
      ["/email-otp/send-verification-otp", { email: "a@example.com", type: ["sign-in"] }, "VALIDATION_ERROR"],
      ["/sign-in/email-otp", { email: "a@example.com", otp: 123456 }, "VALIDATION_ERROR"],
      ["/sign-in/email-otp", { email: "a@example.com", otp: "12345\u0000" }, "VALIDATION_ERROR"],
      ["/sign-in/email-otp", { email: "a@example.com", otp: "' OR 1=1 --" }, "INVALID_OTP"],
      ["/email-otp/verify-email", { email: "nope", otp: "123456" }, "INVALID_EMAIL"],
      ["/email-otp/reset-password", { email: "a@example.com", otp: "123456" }, "VALIDATION_ERROR"],
    ] as const;
    for (const [path, body, code] of invalid) {
      const res = await t.agent().post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe(code);
    }
  });
});

describeEachDialect("passwordless rate limits", (dialect) => {
  let t: TestContext;
  useMailContext(
    {
      dialect,
      env: { AUTH_EMAIL_OTP: "on", AUTH_MAGIC_LINK: "on", AUTH_RATE_LIMIT: "on", AUTH_TRUSTED_PROXIES: "127.0.0.1" },
    },
    (ready) => ({ t } = ready),
  );

  /** Statuses of `count` requests from one client. */
  async function statuses(path: string, body: unknown, count: number, client: string) {
    const agent = t.agent({ from: "127.0.0.1" });
    agent.headers["x-forwarded-for"] = client;
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await agent.post(path, body)).status);
    return out;
  }

  it("allows 3 code sends, 3 code sign-ins and 5 link sends a minute per client", async () => {
    const email = "limited@example.com";
    const send = { email, type: "sign-in" };
    expect(await statuses("/email-otp/send-verification-otp", send, 4, "203.0.113.1")).toEqual([200, 200, 200, 429]);
    expect(await statuses("/sign-in/email-otp", { email, otp: "123456" }, 4, "203.0.113.1")).toEqual([
      400, 400, 400, 429,
    ]);
    expect(await statuses("/sign-in/magic-link", { email }, 6, "203.0.113.1")).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await statuses("/email-otp/send-verification-otp", send, 1, "203.0.113.2")).toEqual([200]);
    t.clock.advance(61_000);
    expect(await statuses("/email-otp/send-verification-otp", send, 1, "203.0.113.1")).toEqual([200]);
  });

  describe("the global rule", () => {
    it("applies to reset by code, not the strict sign-in rule", async () => {
      const got = await statuses("/forget-password/email-otp", { email: "x@example.com" }, 5, "203.0.113.3");
      expect(got).toEqual([200, 200, 200, 200, 200]);
    });
  });
});
