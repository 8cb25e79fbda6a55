import { describe, expect, it } from "vitest";
import { magicLinkIdentifier } from "../../src/services/magic-link/magic-link.ts";
import { updateUser } from "../../src/services/users.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { LINK, mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { captureLog } from "../helpers/security-log.ts";

const log = captureLog();

describeEachDialect("magic link", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect, env: { AUTH_MAGIC_LINK: "on" }, logger: log.logger }, (ready) => ({ t, mailbox } = ready));

  /** Ask for a link for `email` and return it as mailed, with its token. */
  async function sendLink(email: string, body: Record<string, string> = {}) {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const res = await t.agent().post("/sign-in/magic-link", { email, ...body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(res.setCookies).toEqual([]);
    const link = await mailedLink(mailbox, email, "magicLink", seen);
    return { link, token: link.searchParams.get("token") as string };
  }

  const sessionsOf = async (userId: string) =>
    (await t.ctx.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).length;

  it("mails a single-use link, stored only as a hash, that signs an existing user in", async () => {
    const account = await signUp(t);
    const { link, token } = await sendLink(account.email);
    expect(token).toMatch(/^[A-Za-z]{32}$/);
    expect([...link.searchParams.keys()][0]).toBe("token");
    expect(link.searchParams.get("callbackURL")).toBe("/");
    const stored = await t.ctx.db
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "=", magicLinkIdentifier(token))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(Number(stored.expiresAt) - Number(stored.createdAt)).toBe(300_000);

    log.clear();
    const browser = t.agent();
    const res = await browser.get("/magic-link/verify", { query: { token } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: account.user.id, email: account.email, emailVerified: true });
    expect(browser.cookie("session_token")?.split(".")[0]).toBe(res.body.token);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ id: account.user.id, emailVerified: true });
    expect(log.events("sign_in")).toMatchObject([
      { outcome: "success", method: "magic-link", userId: account.user.id },
    ]);
    expect(log.events("email_verified")).toMatchObject([{ method: "magic-link", userId: account.user.id }]);
    log.expectNoSecrets(token, res.body.token);

    const replay = await t.agent().get("/magic-link/verify", { query: { token } });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("http://localhost:3000/?error=INVALID_TOKEN");
    expect(replay.setCookies).toEqual([]);
  });

  it("signs a new user up (verified, named, no password) and honours the three callback URLs", async () => {
    const email = "Newcomer.Magic@Example.com";
    const callbacks = { callbackURL: "/dashboard", newUserCallbackURL: "/welcome", errorCallbackURL: "/oops" };
    const { link } = await sendLink(email, { name: "Newcomer", ...callbacks });
    expect(Object.fromEntries(link.searchParams)).toMatchObject(callbacks);
    log.clear();
    const browser = t.agent();
    const res = await browser.get(pathOf(link));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://localhost:3000/welcome");
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email: email.toLowerCase(), name: "Newcomer", emailVerified: true });
    expect(log.events("sign_up")).toMatchObject([{ method: "magic-link", userId: session.body.user.id }]);
    expect((await browser.get("/list-accounts")).body).toEqual([]);

    const again = await t.agent().get(pathOf(link));
    expect(again.headers.get("location")).toBe("http://localhost:3000/oops?error=INVALID_TOKEN");
    const second = await sendLink(email.toLowerCase(), { ...callbacks, name: "Ignored" });
    const back = t.agent();
    expect((await back.get(pathOf(second.link))).headers.get("location")).toBe("http://localhost:3000/dashboard");
    expect((await back.get("/get-session")).body.user.name).toBe("Newcomer");
  });

  it("answers an expired link EXPIRED_TOKEN once, then INVALID_TOKEN, without a session", async () => {
    const account = await signUp(t);
    const { token } = await sendLink(account.email, { callbackURL: "/in" });
    t.clock.advance(301_000);
    const expired = await t.agent().get("/magic-link/verify", { query: { token, callbackURL: "/in" } });
    expect(expired.headers.get("location")).toBe("http://localhost:3000/in?error=EXPIRED_TOKEN");
    expect(expired.setCookies).toEqual([]);
    const later = await t.agent().get("/magic-link/verify", { query: { token, callbackURL: "/in" } });
    expect(later.headers.get("location")).toBe("http://localhost:3000/in?error=INVALID_TOKEN");
    expect(await sessionsOf(account.user.id)).toBe(1);
    // Links never followed are swept once expired, whenever any link is used.
    await sendLink(account.email);
    t.clock.advance(301_000);
    await t.agent().get("/magic-link/verify", { query: { token: "unrelatedunrelatedunrelatedunrel" } });
    await t.ctx.settle();
    const left = await t.ctx.db
      .selectFrom("verification")
      .select("id")
      .where("identifier", "like", "magic-link:%")
      .where("expiresAt", "<=", t.clock.now)
      .execute();
    expect(left).toEqual([]);
  });

  it("gives exactly one session to 16 concurrent uses of one link", async () => {
    const account = await signUp(t);
    const { token } = await sendLink(account.email);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => t.agent().get("/magic-link/verify", { query: { token } })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(answers.filter((res) => res.status === 302)).toHaveLength(15);
    // The sign-up's session went when the first proof claimed the never-verified account: one session left.
    expect(await sessionsOf(account.user.id)).toBe(1);
  });

  it("gives one user to concurrent links of a new address", async () => {
    const email = "racing.newcomer@example.com";
    const first = await sendLink(email);
    const second = await sendLink(email);
    const answers = await Promise.all(
      [first.token, second.token].map((token) => t.agent().get("/magic-link/verify", { query: { token } })),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect(answers[0].body.user.id).toBe(answers[1].body.user.id);
  });

  it("refuses forged tokens: unknown, the stored hash, another link's prefix, hostile text", async () => {
    const account = await signUp(t);
    const { token } = await sendLink(account.email);
    for (const forged of [
      "abcdefghijklmnopqrstuvwxyzABCDEF",
      magicLinkIdentifier(token),
      magicLinkIdentifier(token).slice("magic-link:".length),
      token.slice(0, 31),
      `${token}'; DROP TABLE verification; --`,
      "x".repeat(5000),
    ]) {
      const res = await t.agent().get("/magic-link/verify", { query: { token: forged } });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("http://localhost:3000/?error=INVALID_TOKEN");
    }
    const control = await t.agent().get("/magic-link/verify", { query: { token: `${token}\u0000` } });
    expect(control.status).toBe(400);
    expect((await t.agent().get("/magic-link/verify", { query: { token } })).status).toBe(200);
  });

  it("refuses a banned user with 403 (the link is used up), and mails them like anyone", async () => {
    const account = await signUp(t);
    await updateUser(t.ctx, account.user.id, { banned: true, banReason: "spam", banExpires: null });
    const { token } = await sendLink(account.email, { callbackURL: "/in" });
    log.clear();
    const res = await t.agent().get("/magic-link/verify", { query: { token, callbackURL: "/in" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("BANNED_USER");
    expect(res.setCookies).toEqual([]);
    expect(log.events("sign_in")).toMatchObject([{ outcome: "failure", reason: "banned", method: "magic-link" }]);
    const again = await t.agent().get("/magic-link/verify", { query: { token, callbackURL: "/in" } });
    expect(again.headers.get("location")).toBe("http://localhost:3000/in?error=INVALID_TOKEN");
  });

  it("refuses untrusted redirect targets before mailing or using the link", async () => {
    const account = await signUp(t);
    await t.ctx.settle();
    const seen = mailCount(mailbox, account.email);
    const refused = [
      ["callbackURL", "https://evil.example/x", "INVALID_CALLBACKURL"],
      ["callbackURL", "//evil.example/x", "INVALID_CALLBACKURL"],
      ["newUserCallbackURL", "https://evil.example/x", "INVALID_NEWUSERCALLBACKURL"],
      ["errorCallbackURL", "javascript:alert(1)", "INVALID_ERRORCALLBACKURL"],
    ];
    for (const [field, url, code] of refused) {
      const res = await t.agent().post("/sign-in/magic-link", { email: account.email, [field]: url });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(code);
    }
    await t.ctx.settle();
    expect(mailCount(mailbox, account.email)).toBe(seen);

    const { token } = await sendLink(account.email);
    for (const field of ["callbackURL", "newUserCallbackURL", "errorCallbackURL"]) {
      const res = await t.agent().get("/magic-link/verify", { query: { token, [field]: "https://evil.example/x" } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    }
    const ok = await t.agent().get("/magic-link/verify", { query: { token, callbackURL: "/ok" } });
    expect(ok.headers.get("location")).toBe("http://localhost:3000/ok");
  });

  it("signs in only the address the link was sent to, not an unverified look-alike", async () => {
    const victim = await signUp(t, { email: "victim@example.com" });
    const lookAlikes = ["victim+x@example.com", "victim@examp1e.com", "victim@example.com.evil.example"];
    for (const email of lookAlikes) await signUp(t, { email });
    const { token } = await sendLink("VICTIM@example.com");
    const res = await t.agent().get("/magic-link/verify", { query: { token } });
    expect(res.body.user.id).toBe(victim.user.id);
    await t.ctx.settle();
    for (const email of lookAlikes)
      expect(mailbox.to(email).filter((mail) => LINK.magicLink.test(mail.text))).toHaveLength(0);
  });

  it("takes a pre-registered account back from whoever set its password: password removed, sessions revoked", async () => {
    // An attacker signs up with the victim's address and a password of their own, and never verifies it.
    const attacker = await signUp(t, { email: "pre.registered@example.com", password: "attacker-password-1" });
    expect((await attacker.agent.get("/get-session")).body.user.emailVerified).toBe(false);
    // The owner signs in with a magic link.
    const { token } = await sendLink(attacker.email);
    const owner = t.agent();
    expect((await owner.get("/magic-link/verify", { query: { token } })).status).toBe(200);
    expect((await owner.get("/get-session")).body.user).toMatchObject({ id: attacker.user.id, emailVerified: true });
    // The attacker's session is gone and their password no longer signs in.
    expect((await attacker.agent.get("/get-session?disableCookieCache=true")).body).toBeNull();
    const again = await t.agent().post("/sign-in/email", { email: attacker.email, password: "attacker-password-1" });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  it("refuses a cross-site send and hostile input", async () => {
    const crossSite = await t
      .agent()
      .post("/sign-in/magic-link", { email: "a@example.com" }, { headers: { origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe("INVALID_ORIGIN");
    for (const body of [
      {},
      { email: "not-an-email" },
      { email: "a@example.com\r\nBcc: x@evil.example" },
      { email: "a@example.com", name: "Mallory\u0000" },
      { email: ["a@example.com"] },
    ]) {
      const res = await t.agent().post("/sign-in/magic-link", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await t.agent().get("/magic-link/verify")).body.code).toBe("VALIDATION_ERROR");
  });
});

describeEachDialect("magic link switches", (dialect) => {
  it("answers 404 on both routes while AUTH_MAGIC_LINK is off (the default)", async () => {
    const t = await createTestContext({ dialect });
    try {
      expect((await t.agent().post("/sign-in/magic-link", { email: "a@example.com" })).status).toBe(404);
      expect((await t.agent().get("/magic-link/verify", { query: { token: "x" } })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  describe("with sign-up by link off", () => {
    let mailbox: Mailbox;
    let t: TestContext;
    useMailContext(
      { dialect, env: { AUTH_MAGIC_LINK: "on" }, config: { magicLink: { disableSignUp: true } } },
      (ready) => ({ t, mailbox } = ready),
    );

    it("answers unknown addresses the same and mails them nothing; known users still get links", async () => {
      const unknown = await t.agent().post("/sign-in/magic-link", { email: "stranger@example.com" });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ status: true });
      const account = await signUp(t);
      await t.agent().post("/sign-in/magic-link", { email: account.email });
      const link = await mailedLink(mailbox, account.email, "magicLink");
      await t.ctx.settle();
      expect(mailCount(mailbox, "stranger@example.com")).toBe(0);
      expect((await t.agent().get(pathOf(link))).status).toBe(302);
    });
  });
});
