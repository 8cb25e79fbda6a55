import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { enrol, keyOf, totp } from "../helpers/two-factor.ts";

describeEachDialect("two-factor: enrolment and sign-in with TOTP", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const signIn = (email: string, password: string, extra: Record<string, unknown> = {}) => {
    const agent = t.agent();
    return agent.post("/sign-in/email", { email, password, ...extra }).then((res) => ({ agent, res }));
  };

  describe("enrolment", () => {
    it("enable answers an otpauth URI and 10 backup codes, and turns nothing on until a first code", async () => {
      const { agent, email, password } = await signUp(t);
      const res = await agent.post("/two-factor/enable", { password });
      expect(res.status).toBe(200);
      expect(res.body.totpURI).toMatch(
        new RegExp(
          `^otpauth://totp/authd:${encodeURIComponent(email)}\\?secret=[A-Z2-7]{52}&issuer=authd&digits=6&period=30$`,
        ),
      );
      expect(res.body.backupCodes).toHaveLength(10);
      for (const code of res.body.backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
      expect(res.setCookies).toEqual([]);
      expect((await agent.get("/get-session")).body.user.twoFactorEnabled).toBeNull();
      expect((await signIn(email, password)).res.body.token).toEqual(expect.any(String));
    });

    it("the first verified code turns two-factor on and rotates the session", async () => {
      const { agent, password, user } = await signUp(t);
      const enabled = await agent.post("/two-factor/enable", { password, issuer: "My App" });
      expect(enabled.body.totpURI).toContain("otpauth://totp/My%20App:");
      expect(enabled.body.totpURI).toContain("&issuer=My+App&");
      const before = agent.cookie("session_token");
      const res = await agent.post("/two-factor/verify-totp", { code: totp(keyOf(enabled.body.totpURI), t.clock.now) });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
      expect(res.body.user).not.toHaveProperty("twoFactorEnabled");
      expect(agent.cookie("session_token")).not.toBe(before);
      const session = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(session.body.session.token).toBe(res.body.token);
      expect(session.body.user.twoFactorEnabled).toBe(true);
    });

    it("refuses a wrong password, no session, and get-totp-uri before enable", async () => {
      const { agent, password } = await signUp(t);
      expect((await agent.post("/two-factor/enable", { password: "wrong-password-1" })).body.code).toBe(
        "INVALID_PASSWORD",
      );
      expect((await agent.post("/two-factor/get-totp-uri", { password })).body.code).toBe("TOTP_NOT_ENABLED");
      const anonymous = await t.agent().post("/two-factor/enable", { password });
      expect(anonymous.status).toBe(401);
      expect((await agent.post("/two-factor/enable", {})).body.code).toBe("VALIDATION_ERROR");
    });

    it("get-totp-uri gives back the same secret with the password", async () => {
      const { agent, password } = await signUp(t);
      const enabled = await agent.post("/two-factor/enable", { password });
      const again = await agent.post("/two-factor/get-totp-uri", { password });
      expect(again.body.totpURI).toBe(enabled.body.totpURI);
      expect((await agent.post("/two-factor/get-totp-uri", { password: "nope-nope-nope" })).body.code).toBe(
        "INVALID_PASSWORD",
      );
    });

    it("stores the secret and the backup codes encrypted, never in clear", async () => {
      const { agent, password, user } = await signUp(t);
      const enabled = await agent.post("/two-factor/enable", { password });
      const row = await t.ctx.db
        .selectFrom("twoFactor")
        .selectAll()
        .where("userId", "=", user.id)
        .executeTakeFirstOrThrow();
      const secret = keyOf(enabled.body.totpURI).toString("utf8");
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(row.secret).not.toContain(secret);
      for (const code of enabled.body.backupCodes) expect(row.backupCodes).not.toContain(code);
    });
  });

  describe("sign-in of an enrolled user", () => {
    it("answers twoFactorRedirect with the challenge cookie and no session, then a TOTP code signs in", async () => {
      const { agent: owner, email, password } = await signUp(t);
      const { key } = await enrol(owner, password, t.clock.now);
      t.clock.advance(30_000);
      const { agent, res } = await signIn(email, password);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true });
      expect(res.setCookies.some((line) => /^better-auth\.two_factor=.+Max-Age=180/.test(line))).toBe(true);
      expect(agent.cookie("session_token")).toBeUndefined();
      expect((await agent.get("/get-session")).body).toBeNull();

      const verified = await agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) });
      expect(verified.status).toBe(200);
      expect(verified.body.token).toEqual(expect.any(String));
      const session = await agent.get("/get-session");
      expect(session.body.session.token).toBe(verified.body.token);
      expect(session.body.user.email).toBe(email);
    });

    it("username sign-in is challenged too", async () => {
      const { agent: owner, password } = await signUp(t, {
        username: `name_${Math.random().toString(36).slice(2, 8)}`,
      });
      await enrol(owner, password, t.clock.now);
      const session = await owner.get("/get-session");
      const res = await t.agent().post("/sign-in/username", { username: session.body.user.username, password });
      expect(res.body).toEqual({ twoFactorRedirect: true });
    });

    it("a user cannot switch the factor off through update-user", async () => {
      const { agent: owner, email, password } = await signUp(t);
      await enrol(owner, password, t.clock.now);
      await owner.post("/update-user", { name: "Renamed", twoFactorEnabled: false });
      expect((await owner.get("/get-session", { query: { disableCookieCache: true } })).body.user).toMatchObject({
        name: "Renamed",
        twoFactorEnabled: true,
      });
      expect((await signIn(email, password)).res.body).toEqual({ twoFactorRedirect: true });
    });

    it("a wrong password is still refused first, unchanged", async () => {
      const { agent: owner, email, password } = await signUp(t);
      await enrol(owner, password, t.clock.now);
      const { res } = await signIn(email, "wrong-password-1");
      expect(res.status).toBe(401);
      expect(res.setCookies.join()).not.toContain("two_factor");
    });

    it("refuses wrong, replayed and expired codes", async () => {
      const { agent: owner, email, password } = await signUp(t);
      const { key } = await enrol(owner, password, t.clock.now);
      t.clock.advance(60_000);
      const first = await signIn(email, password);
      const wrong = await first.agent.post("/two-factor/verify-totp", {
        code: "000000" === totp(key, t.clock.now) ? "111111" : "000000",
      });
      expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_CODE"]);
      const stale = await first.agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now, -2) });
      expect(stale.body.code).toBe("INVALID_CODE");
      const code = totp(key, t.clock.now);
      expect((await first.agent.post("/two-factor/verify-totp", { code })).status).toBe(200);

      const second = await signIn(email, password);
      const replayed = await second.agent.post("/two-factor/verify-totp", { code });
      expect([replayed.status, replayed.body.code]).toEqual([401, "INVALID_CODE"]);
      const older = await second.agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now, -1) });
      expect(older.body.code).toBe("INVALID_CODE");
      t.clock.advance(30_000);
      expect((await second.agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) })).status).toBe(200);
    });

    it("refuses a challenge older than its lifetime, a used one and a forged cookie", async () => {
      const { agent: owner, email, password } = await signUp(t);
      const { key } = await enrol(owner, password, t.clock.now);
      t.clock.advance(30_000);
      const late = await signIn(email, password);
      t.clock.advance(181_000);
      const expired = await late.agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) });
      expect([expired.status, expired.body.code]).toEqual([401, "INVALID_TWO_FACTOR_COOKIE"]);

      const used = await signIn(email, password);
      const cookie = used.agent.cookie("two_factor");
      expect((await used.agent.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) })).status).toBe(200);
      const replay = t.agent();
      replay.jar.set("better-auth.two_factor", cookie ?? "");
      t.clock.advance(30_000);
      expect((await replay.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) })).body.code).toBe(
        "INVALID_TWO_FACTOR_COOKIE",
      );

      const forged = t.agent();
      forged.jar.set("better-auth.two_factor", "2fa-AAAAAAAAAAAAAAAAAAAA.forged");
      expect((await forged.post("/two-factor/verify-totp", { code: "123456" })).body.code).toBe(
        "INVALID_TWO_FACTOR_COOKIE",
      );
      expect((await t.agent().post("/two-factor/verify-totp", { code: "123456" })).status).toBe(401);
    });

    it("refuses a verification from an untrusted origin (login CSRF)", async () => {
      const { agent: owner, email, password } = await signUp(t);
      const { key } = await enrol(owner, password, t.clock.now);
      t.clock.advance(30_000);
      const { agent } = await signIn(email, password);
      const res = await agent.post(
        "/two-factor/verify-totp",
        { code: totp(key, t.clock.now) },
        { headers: { origin: "https://evil.example" } },
      );
      expect([res.status, res.body.code]).toEqual([403, "INVALID_ORIGIN"]);
      expect((await agent.get("/get-session")).body).toBeNull();
    });

    it("16 concurrent verifications of one code give exactly one session", async () => {
      const { agent: owner, email, password, user } = await signUp(t);
      const { key } = await enrol(owner, password, t.clock.now);
      t.clock.advance(30_000);
      const { agent } = await signIn(email, password);
      const cookie = agent.cookieHeader();
      const sessionsBefore = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
      const code = totp(key, t.clock.now);
      const results = await Promise.all(
        Array.from({ length: 16 }, () => t.agent().post("/two-factor/verify-totp", { code }, { headers: { cookie } })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200)) expect(r.status).toBe(401);
      const sessionsAfter = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
      expect(sessionsAfter.length).toBe(sessionsBefore.length + 1);
    });
  });
});
