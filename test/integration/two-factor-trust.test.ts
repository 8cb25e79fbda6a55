import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type CapturedLog, captureLog } from "../helpers/security-log.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// Trusted browsers, turning two-factor off (by the user, by an administrator), password changes, and
// the security events of all of it.

describeEachDialect("two-factor: trusted devices, disable, admin reset", (dialect) => {
  let t: TestContext;
  let log: CapturedLog;
  beforeAll(async () => {
    log = captureLog();
    t = await createTestContext({ dialect, logger: log.logger });
  });
  afterAll(() => t.close());
  beforeEach(() => log.clear());

  async function enrolledUser() {
    const signedUp = await signUp(t);
    const enrolled = await enrol(signedUp.agent, signedUp.password, t.clock.now);
    t.clock.advance(30_000);
    return { ...signedUp, ...enrolled };
  }

  /** Sign in on `browser`, answering the challenge with TOTP when asked; true when it was asked. */
  async function signIn(browser: ReturnType<TestContext["agent"]>, email: string, password: string) {
    const res = await browser.post("/sign-in/email", { email, password });
    return res.body.twoFactorRedirect === true ? "challenged" : res.status === 200 ? "signed-in" : "refused";
  }

  async function trustedBrowser(email: string, password: string, key: Buffer) {
    const browser = t.agent();
    expect(await signIn(browser, email, password)).toBe("challenged");
    const res = await browser.post("/two-factor/verify-totp", { code: totp(key, t.clock.now), trustDevice: true });
    expect(res.status).toBe(200);
    expect(res.setCookies.some((line) => /^better-auth\.trust_device=.+Max-Age=2592000/.test(line))).toBe(true);
    await browser.post("/sign-out");
    t.clock.advance(30_000);
    return browser;
  }

  describe("trust this device", () => {
    it("skips the second factor on every later sign-in of that browser, and only there", async () => {
      const { email, password, key } = await enrolledUser();
      const browser = await trustedBrowser(email, password, key);
      for (let i = 0; i < 3; i++) {
        expect(await signIn(browser, email, password)).toBe("signed-in");
        expect((await browser.get("/get-session")).body.user.email).toBe(email);
        await browser.post("/sign-out");
      }
      expect(await signIn(t.agent(), email, password)).toBe("challenged");
    });

    it("a trust cookie copied to another user's sign-in, or forged, does not count", async () => {
      const owner = await enrolledUser();
      const browser = await trustedBrowser(owner.email, owner.password, owner.key);
      const other = await enrolledUser();
      expect(await signIn(browser, other.email, other.password)).toBe("challenged");
      const forged = t.agent();
      forged.jar.set("better-auth.trust_device", `${encodeURIComponent("AAAA!token.")}${"A".repeat(43)}%3D`);
      expect(await signIn(forged, owner.email, owner.password)).toBe("challenged");
    });

    it("stops when two-factor is disabled, and disabling rotates the session", async () => {
      const { agent, email, password, key } = await enrolledUser();
      const browser = await trustedBrowser(email, password, key);
      const before = agent.cookie("session_token");
      expect((await agent.post("/two-factor/disable", { password: "wrong-password-1" })).body.code).toBe(
        "INVALID_PASSWORD",
      );
      const disabled = await agent.post("/two-factor/disable", { password });
      expect(disabled.body).toEqual({ status: true });
      expect(agent.cookie("session_token")).not.toBe(before);
      expect(
        (await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.twoFactorEnabled,
      ).toBe(false);
      // Enrolled again: the old trust is gone with the old enrolment.
      await enrol(agent, password, t.clock.now);
      t.clock.advance(30_000);
      expect(await signIn(browser, email, password)).toBe("challenged");
      expect(log.events("two_factor_disabled")).toMatchObject([{ method: "user", outcome: "success" }]);
    });

    it("stops when the password changes", async () => {
      const { agent, email, password, key } = await enrolledUser();
      const browser = await trustedBrowser(email, password, key);
      const changed = await agent.post("/change-password", {
        currentPassword: password,
        newPassword: "brand-new-password",
      });
      expect(changed.status).toBe(200);
      expect(await signIn(browser, email, "brand-new-password")).toBe("challenged");
    });
  });

  describe("an administrator removes a user's second factor", () => {
    it("with its own permission; the user then signs in with the password alone", async () => {
      const adminUser = await signUp(t);
      await t.server().post("/admin/set-role", { userId: adminUser.user.id, role: "admin" });
      const { email, password, user, key } = await enrolledUser();
      const browser = await trustedBrowser(email, password, key);

      const listed = await adminUser.agent.get("/admin/list-users", {
        query: { searchValue: email, searchField: "email" },
      });
      expect(listed.body.users[0]).toMatchObject({ id: user.id, twoFactorEnabled: true });

      const plain = await signUp(t);
      const refused = await plain.agent.post("/admin/reset-two-factor", { userId: user.id });
      expect(refused.status).toBe(403);
      expect((await t.agent().post("/admin/reset-two-factor", { userId: user.id })).status).toBe(401);
      expect((await adminUser.agent.post("/admin/reset-two-factor", { userId: "nobody" })).status).toBe(404);

      const reset = await adminUser.agent.post("/admin/reset-two-factor", { userId: user.id });
      expect(reset.status).toBe(200);
      expect(reset.body.user).toMatchObject({ id: user.id, twoFactorEnabled: false });
      expect(await signIn(t.agent(), email, password)).toBe("signed-in");
      const rows = await t.ctx.db.selectFrom("twoFactor").select("id").where("userId", "=", user.id).execute();
      expect(rows).toEqual([]);
      // Enrolled again, the browser trusted before the reset is asked again.
      const session = t.agent();
      await session.post("/sign-in/email", { email, password });
      await enrol(session, password, t.clock.now);
      t.clock.advance(30_000);
      expect(await signIn(browser, email, password)).toBe("challenged");
      expect(log.events("two_factor_disabled")).toMatchObject([
        { method: "admin", actorType: "admin", actorId: adminUser.user.id, userId: user.id },
      ]);
    });
  });

  describe("security events", () => {
    it("logs turning on, challenges, failed codes and the completed sign-in, never a code", async () => {
      const signedUp = await signUp(t);
      const { key, backupCodes } = await enrol(signedUp.agent, signedUp.password, t.clock.now);
      t.clock.advance(30_000);
      expect(log.events("two_factor_enabled")).toMatchObject([{ userId: signedUp.user.id, outcome: "success" }]);
      const browser = t.agent();
      await browser.post("/sign-in/email", { email: signedUp.email, password: signedUp.password });
      expect(log.events("two_factor_challenged")).toMatchObject([{ method: "email", userId: signedUp.user.id }]);
      const wrong = totp(key, t.clock.now) === "000000" ? "111111" : "000000";
      await browser.post("/two-factor/verify-totp", { code: wrong });
      expect(log.events("two_factor_verification")).toMatchObject([
        { outcome: "failure", factor: "totp", reason: "invalid_code", userId: signedUp.user.id },
      ]);
      const code = totp(key, t.clock.now);
      await browser.post("/two-factor/verify-totp", { code });
      expect(log.events("sign_in").at(-1)).toMatchObject({ method: "two-factor", outcome: "success" });
      log.expectNoSecrets(code, ...backupCodes);
    });
  });

  describe("switched off", () => {
    it("AUTH_TWO_FACTOR=off: the routes answer 404 and nobody is challenged", async () => {
      const { email, password } = await enrolledUser();
      const off = await createTestContext({ dialect, env: { AUTH_TWO_FACTOR: "off" } });
      try {
        expect((await off.agent().post("/two-factor/verify-totp", { code: "123456" })).status).toBe(404);
        const { agent } = await signUp(off);
        expect((await agent.post("/two-factor/enable", { password: "correct-horse-battery" })).status).toBe(404);
        expect((await agent.get("/get-session")).body.user).not.toHaveProperty("twoFactorEnabled");
        const enrolledThere = await signUp(off);
        await off.ctx.db
          .updateTable("user")
          .set({ twoFactorEnabled: true })
          .where("id", "=", enrolledThere.user.id)
          .execute();
        const res = await off
          .agent()
          .post("/sign-in/email", { email: enrolledThere.email, password: enrolledThere.password });
        expect(res.body.token).toEqual(expect.any(String));
      } finally {
        await off.close();
      }
      expect(await signIn(t.agent(), email, password)).toBe("challenged");
    });
  });
});
