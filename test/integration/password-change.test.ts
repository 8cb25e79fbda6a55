import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

describeEachDialect("password change and set-password", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const signInStatus = async (email: string, password: string) =>
    (await t.agent().post("/sign-in/email", { email, password })).status;

  describe("POST /change-password", () => {
    it("changes the password, keeps the session and answers a null token with the user", async () => {
      const { agent, email, password, user } = await signUp(t);
      const res = await agent.post("/change-password", { currentPassword: password, newPassword: "a-new-password-1" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        token: null,
        user: {
          id: user.id,
          email,
          name: "Test User",
          image: null,
          emailVerified: false,
          createdAt: user.createdAt,
          updatedAt: user.updatedAt,
        },
      });
      expect(await signInStatus(email, "a-new-password-1")).toBe(200);
      expect(await signInStatus(email, password)).toBe(401);
      expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body).not.toBeNull();
    });

    it("with revokeOtherSessions ends every session and starts a new one for the caller", async () => {
      const { agent, email, password } = await signUp(t);
      const elsewhere = t.agent();
      await elsewhere.post("/sign-in/email", { email, password });
      const res = await agent.post("/change-password", {
        currentPassword: password,
        newPassword: "revoking-password",
        revokeOtherSessions: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      const mine = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(mine.body.session.token).toBe(res.body.token);
      expect((await elsewhere.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
      const rows = await t.ctx.db
        .selectFrom("session")
        .select("tokenHash")
        .where("userId", "=", mine.body.user.id)
        .execute();
      expect(rows.map((r) => r.tokenHash)).toEqual([hashSessionToken(res.body.token)]);
    });

    it("refuses a wrong current password, bad lengths, a user without password and a caller without session", async () => {
      const { agent, password, user } = await signUp(t);
      const wrong = await agent.post("/change-password", {
        currentPassword: "not-my-password",
        newPassword: "whatever-password",
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
      expect(
        (await agent.post("/change-password", { currentPassword: password, newPassword: "short" })).body.code,
      ).toBe("PASSWORD_TOO_SHORT");
      expect(
        (await agent.post("/change-password", { currentPassword: password, newPassword: "y".repeat(129) })).body.code,
      ).toBe("PASSWORD_TOO_LONG");
      expect(
        (await t.agent().post("/change-password", { currentPassword: password, newPassword: "whatever-password" }))
          .status,
      ).toBe(401);
      await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
      const none = await agent.post("/change-password", {
        currentPassword: password,
        newPassword: "whatever-password",
      });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
    });
  });

  describe("POST /set-password", () => {
    it("is a server call only: 404 for a signed-in user or a wrong token", async () => {
      const { agent, user } = await signUp(t);
      const res = await agent.post("/set-password", { userId: user.id, newPassword: "set-by-server-1" });
      expect(res.status).toBe(404);
      const forged = await t
        .agent()
        .post(
          "/set-password",
          { userId: user.id, newPassword: "set-by-server-1" },
          { headers: { authorization: "Bearer nope-nope-nope-nope" } },
        );
      expect(forged.status).toBe(404);
    });

    it("gives a user without a password one, and refuses when a password exists", async () => {
      const { email, user } = await signUp(t);
      const taken = await t.server().post("/set-password", { userId: user.id, newPassword: "set-by-server-1" });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ code: "USER_ALREADY_HAS_A_PASSWORD", message: "user already has a password" });
      await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
      const ok = await t.server().post("/set-password", { userId: user.id, newPassword: "set-by-server-1" });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ status: true });
      expect(await signInStatus(email, "set-by-server-1")).toBe(200);
    });

    it("lets one of 8 concurrent set-password calls for a user without a password win", async () => {
      const { email, user } = await signUp(t);
      await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
      const passwords = Array.from({ length: 8 }, (_, i) => `concurrent-set-${i}`);
      const results = await Promise.all(
        passwords.map((newPassword) => t.server().post("/set-password", { userId: user.id, newPassword })),
      );
      const winners = results.map((r, i) => (r.status === 200 ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      for (const r of results) if (r.status !== 200) expect(r.body.code).toBe("USER_ALREADY_HAS_A_PASSWORD");
      expect(await signInStatus(email, passwords[winners[0]])).toBe(200);
    });

    it("refuses an unknown user and bad lengths", async () => {
      const unknown = await t
        .server()
        .post("/set-password", { userId: "no-such-user", newPassword: "set-by-server-1" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("USER_NOT_FOUND");
      expect((await t.server().post("/set-password", { userId: "x", newPassword: "short" })).body.code).toBe(
        "PASSWORD_TOO_SHORT",
      );
      expect((await t.server().post("/set-password", { newPassword: "long-enough-1" })).body).toMatchObject({
        code: "VALIDATION_ERROR",
        message: "userId is required",
      });
    });
  });
});
