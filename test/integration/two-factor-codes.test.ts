import { describe, expect, it } from "vitest";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// Codes by mail (through the real SMTP capture) and backup codes, in the sign-in challenge.

const CODE_LINE = /^(?:[^\d\r\n]*[:\s])?(\d{6})[ \t]*\r?$/m;

describeEachDialect("two-factor: mailed codes and backup codes", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  /** The code of the newest two-factor mail to `email` after `skip` mails. */
  async function mailedCode(email: string, skip: number): Promise<string> {
    await t.ctx.settle();
    const mails = mailbox.to(email).slice(skip);
    const mail = mails.at(-1);
    if (!mail || !/two-factor/.test(mail.text)) throw new Error(`no two-factor mail to ${email}`);
    return (mail.text.match(CODE_LINE) as RegExpMatchArray)[1];
  }

  async function enrolledUser() {
    const { agent, email, password, user } = await signUp(t);
    const enrolled = await enrol(agent, password, t.clock.now);
    return { email, password, user, ...enrolled };
  }

  async function challenge(email: string, password: string) {
    const agent = t.agent();
    const res = await agent.post("/sign-in/email", { email, password });
    expect(res.body).toEqual({ twoFactorRedirect: true });
    return agent;
  }

  describe("codes by mail", () => {
    it("mails a 6-digit code that signs in once", async () => {
      const { email, password } = await enrolledUser();
      const agent = await challenge(email, password);
      const skip = mailbox.to(email).length;
      expect((await agent.post("/two-factor/send-otp")).body).toEqual({ status: true });
      const code = await mailedCode(email, skip);
      const res = await agent.post("/two-factor/verify-otp", { code });
      expect(res.status).toBe(200);
      expect((await agent.get("/get-session")).body.session.token).toBe(res.body.token);
      const again = await agent.post("/two-factor/verify-otp", { code });
      expect(again.status).not.toBe(200);
    });

    it("takes 5 wrong tries, then refuses even the right code, then reads as expired", async () => {
      const { email, password } = await enrolledUser();
      const agent = await challenge(email, password);
      const skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const code = await mailedCode(email, skip);
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++) {
        const res = await agent.post("/two-factor/verify-otp", { code: wrong });
        expect([res.status, res.body.code]).toEqual([401, "INVALID_CODE"]);
      }
      const blocked = await agent.post("/two-factor/verify-otp", { code });
      expect([blocked.status, blocked.body.code]).toEqual([400, "TOO_MANY_ATTEMPTS_PLEASE_REQUEST_A_NEW_CODE"]);
      expect((await agent.post("/two-factor/verify-otp", { code })).body.code).toBe("OTP_HAS_EXPIRED");
    });

    it("counts every wrong try even when they arrive together", async () => {
      const { email, password } = await enrolledUser();
      const agent = await challenge(email, password);
      const skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const code = await mailedCode(email, skip);
      const cookie = agent.cookieHeader();
      const guesses = ["000001", "000002", "000003", "000004", "000005", "000006", "000007", "000008"].filter(
        (guess) => guess !== code,
      );
      await Promise.all(
        guesses.map((guess) => t.agent().post("/two-factor/verify-otp", { code: guess }, { headers: { cookie } })),
      );
      const res = await agent.post("/two-factor/verify-otp", { code });
      expect(res.status).toBe(400);
    });

    it("accepts a code until 3 minutes, refuses it after, and refuses an older code once a new one is sent", async () => {
      const { email, password } = await enrolledUser();
      const agent = await challenge(email, password);
      let skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const first = await mailedCode(email, skip);
      skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const second = await mailedCode(email, skip);
      if (first !== second)
        expect((await agent.post("/two-factor/verify-otp", { code: first })).body.code).toBe("INVALID_CODE");
      t.clock.advance(170_000);
      const late = await agent.post("/two-factor/verify-otp", { code: second });
      expect(late.status).toBe(200);

      // Signed in (the session outlives the code): a code sent 181 s ago has expired.
      skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const expiring = await mailedCode(email, skip);
      t.clock.advance(181_000);
      const expired = await agent.post("/two-factor/verify-otp", { code: expiring });
      expect([expired.status, expired.body.code]).toEqual([400, "OTP_HAS_EXPIRED"]);
    });

    it("stores no mailed code in clear", async () => {
      const { email, password } = await enrolledUser();
      const agent = await challenge(email, password);
      const skip = mailbox.to(email).length;
      await agent.post("/two-factor/send-otp", {});
      const code = await mailedCode(email, skip);
      const rows = await t.ctx.db.selectFrom("verification").select(["value"]).execute();
      for (const row of rows) expect(row.value).not.toContain(code);
    });
  });

  describe("backup codes", () => {
    it("a backup code signs in once; the same code is refused the second time", async () => {
      const { email, password, backupCodes } = await enrolledUser();
      const first = await challenge(email, password);
      const ok = await first.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      expect(ok.status).toBe(200);
      expect((await first.get("/get-session")).body.session.token).toBe(ok.body.token);
      const second = await challenge(email, password);
      const reused = await second.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      expect([reused.status, reused.body.code]).toEqual([401, "INVALID_BACKUP_CODE"]);
      expect((await second.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status).toBe(200);
    });

    it("of 8 concurrent uses of one backup code, exactly one succeeds", async () => {
      const { email, password, backupCodes, user } = await enrolledUser();
      const agents = await Promise.all(Array.from({ length: 8 }, () => challenge(email, password)));
      const results = await Promise.all(
        agents.map((agent) => agent.post("/two-factor/verify-backup-code", { code: backupCodes[2] })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const view = await t.server().post("/two-factor/view-backup-codes", { userId: user.id });
      expect(view.body.backupCodes).toHaveLength(9);
      expect(view.body.backupCodes).not.toContain(backupCodes[2]);
    });

    it("regenerating replaces every code; view-backup-codes is a server call", async () => {
      const { email, password, backupCodes, user } = await enrolledUser();
      const owner = t.agent();
      await owner.post("/sign-in/email", { email, password });
      await owner.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      const fresh = await owner.post("/two-factor/generate-backup-codes", { password });
      expect(fresh.body.backupCodes).toHaveLength(10);
      const agent = await challenge(email, password);
      expect((await agent.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).body.code).toBe(
        "INVALID_BACKUP_CODE",
      );
      expect((await t.agent().post("/two-factor/view-backup-codes", { userId: user.id })).status).toBe(404);
      expect((await t.server().post("/two-factor/view-backup-codes", { userId: user.id })).body.backupCodes).toEqual(
        fresh.body.backupCodes,
      );
    });

    it("voids the challenge after 10 wrong TOTP or backup codes", async () => {
      const { email, password, key } = await enrolledUser();
      const agent = await challenge(email, password);
      for (let i = 0; i < 10; i++) await agent.post("/two-factor/verify-backup-code", { code: `wrong-${i}` });
      const res = await agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now + 60_000) });
      expect([res.status, res.body.code]).toEqual([401, "INVALID_TWO_FACTOR_COOKIE"]);
    });
  });
});
