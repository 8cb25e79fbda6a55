import { describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailedLink, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// Issue 26, item 3: second-factor guesses are bounded per account, across challenges, password steps and
// restarts. The attacker knows the password; the owner is told by mail; a success, the cool-down or an
// operator ends the lock. Mail goes to the real SMTP capture.

const LOCKED = { status: 429, code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER" };
const LOCK_MAIL = /entered (\d+) wrong second-factor codes in a row/;

const answer = (res: { status: number; body: { code?: string } }) => ({ status: res.status, code: res.body.code });
const retryAfter = (res: { headers: Headers }) => Number(res.headers.get("x-retry-after"));

/** A wrong TOTP code: the right one for an hour ago (never accepted now). */
const wrongCode = (key: Buffer, now: number) => totp(key, now - 3_600_000);

/** Two challenges of 10 wrong TOTP codes each: 20 failures in a row, the default bound; every answer. */
async function failTwenty(t: TestContext, email: string, password: string, key: Buffer): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < 2; round++) {
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
    for (let i = 0; i < 10; i++)
      statuses.push((await agent.post("/two-factor/verify-totp", { code: wrongCode(key, t.clock.now) })).status);
  }
  return statuses;
}

function lockoutSuite(t: () => TestContext, mailbox: () => Mailbox) {
  async function enrolledUser() {
    const { agent, email, password, user } = await signUp(t());
    const enrolled = await enrol(agent, password, t().clock.now);
    // The enrolment used this step's code: later sign-ins use a newer one.
    t().clock.advance(30_000);
    return { email, password, userId: user.id as string, ...enrolled };
  }

  async function challenge(email: string, password: string): Promise<Agent> {
    const agent = t().agent();
    const res = await agent.post("/sign-in/email", { email, password });
    expect(res.body).toEqual({ twoFactorRedirect: true });
    return agent;
  }

  const lockMails = async (email: string) => {
    await t().ctx.settle();
    return mailbox()
      .to(email)
      .filter((mail) => LOCK_MAIL.test(mail.text));
  };

  it("attacker: 11 challenges × 10 wrong TOTP codes end locked after 20, and the right code is refused", async () => {
    const { email, password, key, userId } = await enrolledUser();
    const answers: { status: number; code?: string }[] = [];
    for (let round = 0; round < 11; round++) {
      const agent = await challenge(email, password);
      for (let i = 0; i < 10; i++)
        answers.push(answer(await agent.post("/two-factor/verify-totp", { code: wrongCode(key, t().clock.now) })));
    }
    expect(answers.slice(0, 20).every((a) => a.status === 401 && a.code === "INVALID_CODE")).toBe(true);
    expect(answers.slice(20)).toEqual(Array.from({ length: 90 }, () => LOCKED));

    const agent = await challenge(email, password);
    const right = await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) });
    expect(answer(right)).toEqual(LOCKED);
    expect(retryAfter(right)).toBeGreaterThan(0);
    expect(retryAfter(right)).toBeLessThanOrEqual(900);
    expect((await agent.get("/get-session")).body).toBeNull();

    // Only the 20 evaluated codes were logged as refused; one lock, logged and mailed to the owner.
    const refused = (await eventsOfType(t().ctx, "two_factor_verification")).filter((e) => e.subjectId === userId);
    expect(refused).toHaveLength(20);
    const locks = (await eventsOfType(t().ctx, "two_factor_locked")).filter((e) => e.subjectId === userId);
    expect(locks.map((e) => JSON.parse(e.data))).toEqual([{ failures: 20, lockedFor: 900 }]);
    const mails = await lockMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text.match(LOCK_MAIL)?.[1]).toBe("20");
    expect(mails[0].text).not.toMatch(/^\d{6}\s*$/m);
  });

  it("counts backup codes and mailed codes with TOTP, and refuses send-otp while locked", async () => {
    const { email, password, key, backupCodes } = await enrolledUser();
    const first = await challenge(email, password);
    for (let i = 0; i < 10; i++) await first.post("/two-factor/verify-backup-code", { code: `wrong-${i}x` });
    const second = await challenge(email, password);
    expect((await second.post("/two-factor/send-otp", {})).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await second.post("/two-factor/verify-otp", { code: `00000${i}` })).status).not.toBe(429);
    for (let i = 0; i < 5; i++) await second.post("/two-factor/verify-totp", { code: wrongCode(key, t().clock.now) });

    const third = await challenge(email, password);
    expect(answer(await third.post("/two-factor/send-otp", {}))).toEqual(LOCKED);
    expect(answer(await third.post("/two-factor/verify-backup-code", { code: backupCodes[0] }))).toEqual(LOCKED);
    expect(answer(await third.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) }))).toEqual(LOCKED);
    expect(await lockMails(email)).toHaveLength(1);
  });

  it("a success resets the count: 19 failures, a right code, then 19 more are still answered", async () => {
    const { email, password, key } = await enrolledUser();
    for (let round = 0; round < 2; round++) {
      let agent = await challenge(email, password);
      for (let i = 0; i < 19; i++) {
        if (i === 10) agent = await challenge(email, password);
        const res = await agent.post("/two-factor/verify-totp", { code: wrongCode(key, t().clock.now) });
        expect(answer(res)).toEqual({ status: 401, code: "INVALID_CODE" });
      }
      const right = await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) });
      expect(right.status).toBe(200);
      t().clock.advance(30_000);
    }
    expect(await lockMails(email)).toHaveLength(0);
  });

  it("the cool-down ends the lock; each failure after it locks again for twice as long, until a success", async () => {
    const { email, password, key, userId } = await enrolledUser();
    await failTwenty(t(), email, password, key);
    t().clock.advance(899_000);
    let agent = await challenge(email, password);
    expect(answer(await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) }))).toEqual(LOCKED);

    t().clock.advance(2_000);
    agent = await challenge(email, password);
    const wrong = await agent.post("/two-factor/verify-totp", { code: wrongCode(key, t().clock.now) });
    expect(answer(wrong)).toEqual({ status: 401, code: "INVALID_CODE" });
    const relocked = await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) });
    expect(answer(relocked)).toEqual(LOCKED);
    expect(retryAfter(relocked)).toBe(1800);

    t().clock.advance(1_800_000);
    agent = await challenge(email, password);
    expect((await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) })).status).toBe(200);
    const locks = (await eventsOfType(t().ctx, "two_factor_locked")).filter((e) => e.subjectId === userId);
    expect(locks.map((e) => JSON.parse(e.data).lockedFor)).toEqual([900, 1800]);
    expect(await lockMails(email)).toHaveLength(2);

    // The success cleared everything: the next lock is the first one again, after 20 failures.
    t().clock.advance(30_000);
    expect(await failTwenty(t(), email, password, key)).toEqual(Array(20).fill(401));
    agent = await challenge(email, password);
    const locked = await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) });
    expect([locked.status, retryAfter(locked)]).toEqual([429, 900]);
  });

  it("attacker: 40 wrong codes sent at once from 4 challenges: exactly 20 are checked", async () => {
    const { email, password, key, userId } = await enrolledUser();
    const cookies = await Promise.all(
      Array.from({ length: 4 }, async () => (await challenge(email, password)).cookieHeader()),
    );
    // Barrier: every request is built first, then all are released together.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const racing = cookies.flatMap((cookie) =>
      Array.from({ length: 10 }, async (_, i) => {
        await gate;
        const code = totp(key, t().clock.now - 3_600_000 - i * 30_000);
        return t().agent().post("/two-factor/verify-totp", { code }, { headers: { cookie } });
      }),
    );
    release();
    const results = (await Promise.all(racing)).map(answer);
    expect(results.filter((r) => r.code === "INVALID_CODE")).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(20);
    const refused = (await eventsOfType(t().ctx, "two_factor_verification")).filter((e) => e.subjectId === userId);
    expect(refused).toHaveLength(20);
    expect(await lockMails(email)).toHaveLength(1);
  });

  it("an operator lifts the lock: a new password (the factor stays), or reset-two-factor (the factor goes)", async () => {
    const { email, password, key, userId } = await enrolledUser();
    await failTwenty(t(), email, password, key);
    const newPassword = "operator-set-password-1";
    expect((await t().server().post("/admin/set-user-password", { userId, newPassword })).status).toBe(200);
    const agent = await challenge(email, newPassword);
    expect((await agent.post("/two-factor/verify-totp", { code: totp(key, t().clock.now) })).status).toBe(200);

    t().clock.advance(30_000);
    await failTwenty(t(), email, newPassword, key);
    expect((await t().server().post("/admin/reset-two-factor", { userId })).status).toBe(200);
    const fresh = await t().agent().post("/sign-in/email", { email, password: newPassword });
    expect(fresh.body.token).toEqual(expect.any(String));
    const lockRows = await t()
      .ctx.db.selectFrom("verification")
      .select("id")
      .where("id", "=", `two-factor-lock:${userId}`)
      .execute();
    expect(lockRows).toEqual([]);
  });

  it("a squatter's lock goes with the claim: the owner who proves the mailbox enrols and signs in", async () => {
    // The squatter signed up first (never verified), enrolled, and locked the factor with wrong codes.
    const { email, password, key, userId } = await enrolledUser();
    await failTwenty(t(), email, password, key);
    await t().agent().post("/request-password-reset", { email, redirectTo: "/reset" });
    const token = (await mailedLink(mailbox(), email, "reset")).pathname.split("/").pop();
    const ownerPassword = "owner-password-after-claim-1";
    expect((await t().agent().post("/reset-password", { token, newPassword: ownerPassword })).status).toBe(200);

    const owner = t().agent();
    expect((await owner.post("/sign-in/email", { email, password: ownerPassword })).body.token).toEqual(
      expect.any(String),
    );
    const own = await enrol(owner, ownerPassword, t().clock.now);
    t().clock.advance(30_000);
    const agent = await challenge(email, ownerPassword);
    const right = await agent.post("/two-factor/verify-totp", { code: totp(own.key, t().clock.now) });
    expect(right.status, right.text).toBe(200);
    const claims = (await eventsOfType(t().ctx, "account_claimed")).filter((e) => e.subjectId === userId);
    expect(claims).toHaveLength(1);
  });
}

describeEachDialect("two-factor: the per-account bound on second-factor attempts", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));
  lockoutSuite(
    () => t,
    () => mailbox,
  );

  it("the lock outlives the process: a daemon started afresh on the same database refuses the right code", async () => {
    const { agent: owner, email, password } = await signUp(t);
    const { key } = await enrol(owner, password, t.clock.now);
    t.clock.advance(30_000);
    await failTwenty(t, email, password, key);
    const restarted = await createTestContext({ dialect, databaseURL: t.ctx.config.databaseURL });
    try {
      restarted.clock.now = t.clock.now;
      const agent = restarted.agent();
      expect((await agent.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
      const right = await agent.post("/two-factor/verify-totp", { code: totp(key, restarted.clock.now) });
      expect(answer(right)).toEqual(LOCKED);
    } finally {
      await restarted.close();
    }
  });
});

describe.skipIf(redisSkipped)("two-factor: the per-account bound with Redis as secondary storage", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect: "postgres", env: redisEnv() }, (ready) => ({ t, mailbox } = ready));
  lockoutSuite(
    () => t,
    () => mailbox,
  );
});
