import { describe, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedCode, mailedLink, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// Two-factor and the passwordless ways in: a magic link or an email code proves the mailbox, not a second
// factor, so an enrolled user is challenged (unless twoFactor.skipForPasswordless); a passkey is a strong
// factor on its own and is never challenged.

const PASSWORDLESS = { AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" };

/** A user whose address is verified, with two-factor on. */
async function enrolledUser(t: TestContext) {
  const account = await signUp(t);
  await updateUser(t.ctx, account.user.id, { emailVerified: true });
  const { key } = await enrol(account.agent, account.password, t.ctx.now());
  return { ...account, key };
}

async function codeFor(t: TestContext, mailbox: Mailbox, email: string): Promise<string> {
  await t.ctx.settle();
  const seen = mailCount(mailbox, email);
  expect((await t.agent().post("/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
  return mailedCode(mailbox, email, "sign-in", seen);
}

async function linkTokenFor(t: TestContext, mailbox: Mailbox, email: string): Promise<string> {
  await t.ctx.settle();
  const seen = mailCount(mailbox, email);
  expect((await t.agent().post("/sign-in/magic-link", { email })).status).toBe(200);
  return (await mailedLink(mailbox, email, "magicLink", seen)).searchParams.get("token") as string;
}

describeEachDialect("two-factor with passwordless sign-in", (dialect) => {
  describe("by default", () => {
    let t: TestContext;
    let mailbox: Mailbox;
    useMailContext({ dialect, env: PASSWORDLESS }, (ready) => ({ t, mailbox } = ready));

    it("challenges an email-code sign-in of an enrolled user, and the second factor completes it", async () => {
      const user = await enrolledUser(t);
      const browser = t.agent();
      const res = await browser.post("/sign-in/email-otp", {
        email: user.email,
        otp: await codeFor(t, mailbox, user.email),
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true });
      expect(browser.cookie("session_token")).toBeFalsy();
      expect((await browser.get("/get-session")).body).toBeNull();

      const verified = await browser.post("/two-factor/verify-totp", { code: totp(user.key, t.ctx.now()) });
      expect(verified.status).toBe(200);
      expect((await browser.get("/get-session")).body.user.id).toBe(user.user.id);
    });

    it("challenges a magic-link sign-in of an enrolled user: no session from the link alone", async () => {
      const user = await enrolledUser(t);
      const browser = t.agent();
      const token = await linkTokenFor(t, mailbox, user.email);
      const res = await browser.get(`/magic-link/verify?token=${token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true });
      expect(browser.cookie("session_token")).toBeFalsy();
      const sessions = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.user.id).execute();
      expect(sessions).toHaveLength(1); // the sign-up's own session only (the account was verified already)
    });

    it("removes a second factor set up on a never-verified account when its owner proves the mailbox", async () => {
      // An attacker pre-registers the owner's address and turns two-factor on with their own authenticator.
      const attacker = await signUp(t, { email: "pre.two.factor@example.com" });
      await enrol(attacker.agent, attacker.password, t.ctx.now());
      // The owner's first email code signs them in without the attacker's factor, and the factor is gone.
      const browser = t.agent();
      const code = await codeFor(t, mailbox, attacker.email);
      const res = await browser.post("/sign-in/email-otp", { email: attacker.email, otp: code });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(attacker.user.id);
      expect((await browser.get("/get-session")).body.user).toMatchObject({
        twoFactorEnabled: false,
        emailVerified: true,
      });
      expect(
        await t.ctx.db.selectFrom("twoFactor").selectAll().where("userId", "=", attacker.user.id).execute(),
      ).toEqual([]);
    });

    it("never challenges a passkey sign-in: a passkey is a strong factor", async () => {
      const user = await enrolledUser(t);
      const authenticator = new SoftAuthenticator();
      expect((await registerPasskey(user.agent, authenticator)).verified.status).toBe(200);
      const browser = t.agent();
      const { verified } = await passkeySignIn(browser, authenticator);
      expect(verified.status).toBe(200);
      expect(verified.body.session.userId).toBe(user.user.id);
      expect((await browser.get("/get-session")).body.user.id).toBe(user.user.id);
    });
  });

  describe("with twoFactor.skipForPasswordless", () => {
    let t: TestContext;
    let mailbox: Mailbox;
    useMailContext(
      { dialect, env: PASSWORDLESS, config: { twoFactor: { skipForPasswordless: true } } },
      (ready) => ({ t, mailbox } = ready),
    );

    it("lets a mailed code sign an enrolled user in without the second factor", async () => {
      const user = await enrolledUser(t);
      const browser = t.agent();
      const res = await browser.post("/sign-in/email-otp", {
        email: user.email,
        otp: await codeFor(t, mailbox, user.email),
      });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.user.id);
      expect((await browser.get("/get-session")).body.user.id).toBe(user.user.id);
    });

    it("still challenges a password sign-in", async () => {
      const user = await enrolledUser(t);
      const res = await t.agent().post("/sign-in/email", { email: user.email, password: user.password });
      expect(res.body).toEqual({ twoFactorRedirect: true });
    });
  });
});
