import { expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { enrol } from "../helpers/two-factor.ts";

// Issue 26, items 4 and 5: mailed two-factor codes. Re-sending a code does not give a challenge new
// guesses (its wrong codes are counted across every code it was sent), and a challenge cannot mail more
// codes than the address's budget of sign-in mails (the one magic links and email codes have: 10 per
// 15 minutes by default). The per-account bound (item 3) is raised here so that these limits show alone.

const CODE_LINE = /^(?:[^\d\r\n]*[:\s])?(\d{6})[ \t]*\r?$/m;

describeEachDialect("two-factor: limits of mailed codes", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect, config: { twoFactor: { maxFailures: 100 } } }, (ready) => ({ t, mailbox } = ready));

  const codeMails = async (email: string) => {
    await t.ctx.settle();
    return mailbox.to(email).filter((mail) => /two-factor/.test(mail.text) && CODE_LINE.test(mail.text));
  };

  async function challengedUser(): Promise<{ email: string; password: string; agent: Agent }> {
    const { agent: owner, email, password } = await signUp(t);
    await enrol(owner, password, t.clock.now);
    t.clock.advance(30_000);
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
    return { email, password, agent };
  }

  /** A 6-digit code that is not `code`. */
  const otherThan = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");

  it("attacker: 20 send-otp × 5 wrong tries end refused, and the right code of the last mail does not sign in", async () => {
    const { email, agent } = await challengedUser();
    const statuses: number[] = [];
    let lastCode: string | null = null;
    for (let round = 0; round < 20; round++) {
      const sent = await agent.post("/two-factor/send-otp", {});
      statuses.push(sent.status);
      if (sent.status === 200) lastCode = ((await codeMails(email)).at(-1)?.text.match(CODE_LINE) ?? [])[1] ?? null;
      for (let i = 0; i < 5; i++)
        statuses.push((await agent.post("/two-factor/verify-otp", { code: otherThan(lastCode ?? "0", i) })).status);
    }
    // Two codes, five wrong tries each: the challenge's ten, then it is void.
    expect(statuses.slice(0, 12)).toEqual([200, 401, 401, 401, 401, 401, 200, 401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(12))).toEqual(new Set([401]));
    expect(await codeMails(email)).toHaveLength(2);
    const right = await agent.post("/two-factor/verify-otp", { code: lastCode });
    expect([right.status, right.body.code]).toEqual([401, "INVALID_TWO_FACTOR_COOKIE"]);
    expect((await agent.get("/get-session")).body).toBeNull();
  });

  it("wrong mailed codes and wrong TOTP codes share the challenge's ten", async () => {
    const { agent } = await challengedUser();
    await agent.post("/two-factor/send-otp", {});
    for (let i = 0; i < 5; i++) await agent.post("/two-factor/verify-otp", { code: `00000${i}` });
    for (let i = 0; i < 5; i++) await agent.post("/two-factor/verify-backup-code", { code: `wrong-code-${i}` });
    const res = await agent.post("/two-factor/send-otp", {});
    expect([res.status, res.body.code]).toEqual([401, "INVALID_TWO_FACTOR_COOKIE"]);
  });

  it("attacker: 16 send-otp calls from one challenge mail 10 codes; the rest answer 429 and mail nothing", async () => {
    const { email, agent } = await challengedUser();
    const answers: number[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await agent.post("/two-factor/send-otp", {});
      answers.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("x-retry-after"))).toBeGreaterThan(0);
    }
    expect(answers).toEqual([...Array(10).fill(200), ...Array(6).fill(429)]);
    const mails = await codeMails(email);
    expect(mails).toHaveLength(10);
    // A refused send replaces nothing: the tenth code still signs in.
    const code = (mails[9].text.match(CODE_LINE) as RegExpMatchArray)[1];
    expect((await agent.post("/two-factor/verify-otp", { code })).status).toBe(200);
  });

  it("the budget is the address's: a new challenge draws on the same one, and the window opens it again", async () => {
    const { email, password, agent } = await challengedUser();
    for (let i = 0; i < 10; i++) expect((await agent.post("/two-factor/send-otp", {})).status).toBe(200);
    const second = t.agent();
    expect((await second.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
    expect((await second.post("/two-factor/send-otp", {})).status).toBe(429);
    // The window (accountThrottle.window, 15 minutes) opens it again.
    t.clock.advance(901_000);
    const third = t.agent();
    expect((await third.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
    expect((await third.post("/two-factor/send-otp", {})).status).toBe(200);
  });
});
