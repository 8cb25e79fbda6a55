import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import { heardOfChanges } from "../helpers/changes.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

describeEachDialect("email + password accounts and sessions", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_SESSION_COOKIE_CACHE: "on" } });
  });
  afterAll(() => t.close());

  describe("POST /sign-up/email", () => {
    it("creates a lower-cased user, signs them in and sets the session cookies", async () => {
      const agent = t.agent();
      const res = await agent.post("/sign-up/email", {
        name: "Ada",
        email: "Ada.Lovelace@Example.COM",
        password: "correct-horse-battery",
      });
      expect(res.status).toBe(200);
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.body.user).toMatchObject({
        name: "Ada",
        email: "ada.lovelace@example.com",
        emailVerified: false,
        image: null,
        role: "user",
      });
      expect(res.body.user.id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.body.user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      const tokenCookie = res.setCookies.find((c) => c.startsWith("better-auth.session_token="))!;
      expect(tokenCookie).toMatch(/Max-Age=604800/);
      expect(tokenCookie).toMatch(/HttpOnly/);
      expect(tokenCookie).toMatch(/SameSite=Lax/);
      expect(tokenCookie).toMatch(/Path=\//);
      // "token.signature", URL-encoded, signature is 44 base64 characters
      const value = decodeURIComponent(tokenCookie.split(";")[0].split("=").slice(1).join("="));
      expect(value.split(".")[0]).toBe(res.body.token);
      expect(value.split(".")[1]).toHaveLength(44);
    });

    it("refuses an invalid email, short and long passwords", async () => {
      const a = t.agent();
      expect(
        (await a.post("/sign-up/email", { name: "x", email: "not-an-email", password: "correct-horse" })).body,
      ).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      const short = await a.post("/sign-up/email", { name: "x", email: "short@example.com", password: "short" });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
      const long = await a.post("/sign-up/email", { name: "x", email: "long@example.com", password: "x".repeat(129) });
      expect(long.body.code).toBe("PASSWORD_TOO_LONG");
      expect(a.jar.size).toBe(0);
    });

    it("answers 422 User already exists for a taken email in any case", async () => {
      await signUp(t, { email: "taken@example.com" });
      const res = await t
        .agent()
        .post("/sign-up/email", { name: "y", email: "TAKEN@example.com", password: "correct-horse-battery" });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    });

    it("answers 400 VALIDATION_ERROR naming a missing field", async () => {
      const noName = await t
        .agent()
        .post("/sign-up/email", { email: "noname@example.com", password: "correct-horse-battery" });
      expect(noName.status).toBe(422);
      expect(noName.body).toMatchObject({
        code: "FAILED_TO_CREATE_USER",
        message: "Failed to create user",
        details: { code: dialect === "sqlite" ? "SQLITE_CONSTRAINT_NOTNULL" : "23502" },
      });
      expect(
        await t.ctx.db.selectFrom("user").select("id").where("email", "=", "noname@example.com").executeTakeFirst(),
      ).toBeUndefined();
      const res = await t.agent().post("/sign-up/email", { name: "x", email: "nopass@example.com" });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "password is required" });
      const badJSON = await t.agent().post("/sign-up/email", undefined, { raw: "{not json" });
      expect(badJSON.status).toBe(400);
      expect(badJSON.body.code).toBe("VALIDATION_ERROR");
    });

    it("creates exactly one user when the same email signs up concurrently", async () => {
      const attempts = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t
            .agent()
            .post("/sign-up/email", { name: `n${i}`, email: "race@example.com", password: "correct-horse-battery" }),
        ),
      );
      expect(attempts.filter((r) => r.status === 200)).toHaveLength(1);
      expect(attempts.filter((r) => r.status === 422)).toHaveLength(7);
      const count = await t.ctx.db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("email", "=", "race@example.com")
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });
  });

  describe("POST /sign-in/email", () => {
    it("signs in with the right password and answers the same refusal for a wrong password or an unknown email", async () => {
      const { email, password } = await signUp(t);
      const wrong = await t.agent().post("/sign-in/email", { email, password: "wrong-password-1" });
      const unknown = await t
        .agent()
        .post("/sign-in/email", { email: "nobody@example.com", password: "wrong-password-1" });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
      expect(unknown.body).toEqual(wrong.body);

      const agent = t.agent();
      const ok = await agent.post("/sign-in/email", { email: email.toUpperCase(), password });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ redirect: false, user: { email } });
      const session = await agent.get("/get-session");
      expect(session.body.user.email).toBe(email);
      expect(session.body.session.token).toBe(ok.body.token);
    });

    it("with rememberMe false sets a session cookie without Max-Age and a dont_remember cookie", async () => {
      const { email, password } = await signUp(t);
      const agent = t.agent();
      const res = await agent.post("/sign-in/email", { email, password, rememberMe: false });
      const token = res.setCookies.find((c) => c.startsWith("better-auth.session_token="))!;
      expect(token).not.toMatch(/Max-Age/);
      expect(res.setCookies.some((c) => c.startsWith("better-auth.dont_remember="))).toBe(true);
      const session = await agent.get("/get-session", { query: { disableCookieCache: true } });
      const lifetime = Date.parse(session.body.session.expiresAt) - Date.parse(session.body.session.createdAt);
      expect(lifetime).toBe(86_400_000);
    });

    it("refuses a malformed email with Invalid email", async () => {
      const res = await t.agent().post("/sign-in/email", { email: "nope", password: "whatever-123" });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_EMAIL");
    });
  });

  describe("GET /get-session", () => {
    it("answers null without a cookie and with a forged one", async () => {
      expect((await t.agent().get("/get-session")).body).toBeNull();
      const forged = t.agent();
      forged.jar.set("better-auth.session_token", "abc.def");
      expect((await forged.get("/get-session")).body).toBeNull();
    });

    it("serves the signed cookie cache, and reads the database when asked", async () => {
      const { agent, user } = await signUp(t);
      const cached = await agent.get("/get-session");
      expect(cached.body.user.id).toBe(user.id);
      await t.ctx.db.updateTable("user").set({ name: "Renamed Directly" }).where("id", "=", user.id).execute();
      expect((await agent.get("/get-session")).body.user.name).toBe("Test User");
      expect((await agent.get("/get-session", { query: { disableCookieCache: "true" } })).body.user.name).toBe(
        "Renamed Directly",
      );
    });

    it("ignores a tampered session_data cookie", async () => {
      const { agent, user } = await signUp(t);
      const data = agent.cookie("session_data")!;
      const decoded = JSON.parse(Buffer.from(data, "base64url").toString());
      decoded.user.name = "Mallory";
      agent.jar.set("better-auth.session_data", Buffer.from(JSON.stringify(decoded)).toString("base64url"));
      const res = await agent.get("/get-session");
      expect(res.body.user.id).toBe(user.id);
      expect(res.body.user.name).toBe("Test User");
    });

    it("refreshes a session older than the update age and deletes one found expired", async () => {
      const { agent } = await signUp(t);
      const before = (await agent.get("/get-session", { query: { disableCookieCache: true } })).body.session;
      t.clock.advance(2 * 86_400_000);
      const refreshed = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(Date.parse(refreshed.body.session.expiresAt)).toBeGreaterThan(Date.parse(before.expiresAt));
      expect(
        refreshed.setCookies.some((c) => c.startsWith("better-auth.session_token=") && /Max-Age=604800/.test(c)),
      ).toBe(true);

      const noRefresh = await agent.get("/get-session", { query: { disableCookieCache: true, disableRefresh: true } });
      expect(noRefresh.body.session.expiresAt).toBe(refreshed.body.session.expiresAt);

      t.clock.advance(8 * 86_400_000);
      const expired = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(expired.body).toBeNull();
      const row = await t.ctx.db
        .selectFrom("session")
        .select("id")
        .where("tokenHash", "=", hashSessionToken(before.token))
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });
  });

  describe("sessions", () => {
    it("lists, revokes one, revokes others and revokes all", async () => {
      const { email, password, agent: first } = await signUp(t);
      const second = t.agent();
      await second.post("/sign-in/email", { email, password });
      const third = t.agent();
      const thirdSignIn = await third.post("/sign-in/email", { email, password });

      const list = await first.get("/list-sessions");
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(3);

      expect((await first.post("/revoke-session", { token: thirdSignIn.body.token })).body).toEqual({ status: true });
      expect((await third.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();

      expect((await first.post("/revoke-other-sessions")).body).toEqual({ status: true });
      expect((await second.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
      expect((await first.get("/list-sessions")).body).toHaveLength(1);

      expect((await first.post("/revoke-sessions")).body).toEqual({ status: true });
      expect((await first.get("/list-sessions")).status).toBe(401);
    });

    it("does not revoke another user's session by token", async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      expect((await alice.agent.post("/revoke-session", { token: bob.token })).status).toBe(401);
      expect((await bob.agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.id).toBe(
        bob.user.id,
      );
    });

    it("requires a session on session routes", async () => {
      for (const [method, path] of [
        ["GET", "/list-sessions"],
        ["POST", "/revoke-session"],
        ["POST", "/revoke-sessions"],
        ["POST", "/revoke-other-sessions"],
        ["POST", "/update-user"],
      ] as const) {
        const res = await t.agent().request(method, path, method === "POST" ? { token: "x" } : undefined);
        expect(res.status, path).toBe(401);
      }
    });

    it("sign-out deletes the session and clears all three cookies", async () => {
      const { agent, token } = await signUp(t);
      const res = await agent.post("/sign-out");
      expect(res.body).toEqual({ success: true });
      for (const name of ["session_token", "session_data", "dont_remember"]) {
        expect(
          res.setCookies.some((c) => c.startsWith(`better-auth.${name}=;`) && /Max-Age=0/.test(c)),
          name,
        ).toBe(true);
      }
      expect((await agent.get("/get-session")).body).toBeNull();
      const row = await t.ctx.db
        .selectFrom("session")
        .select("id")
        .where("tokenHash", "=", hashSessionToken(token!))
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it("sign-out without a session answers 400", async () => {
      const res = await t.agent().post("/sign-out");
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("FAILED_TO_GET_SESSION");
    });
  });

  describe("POST /update-user", () => {
    it("updates name and image and rewrites the cached session", async () => {
      const { agent } = await signUp(t);
      const res = await agent.post("/update-user", { name: "New Name", image: "https://example.com/a.png" });
      expect(res.body).toEqual({ status: true });
      const session = await agent.get("/get-session");
      expect(session.body.user).toMatchObject({ name: "New Name", image: "https://example.com/a.png" });
    });

    it("answers an empty body with {status: true} and changes nothing (issue 15, item 22)", async () => {
      const { agent, user } = await signUp(t, { name: "Kept Name" });
      const res = await agent.post("/update-user", {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      const session = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(session.body.user).toMatchObject({ id: user.id, name: "Kept Name", updatedAt: user.updatedAt });
      expect((await t.agent().post("/update-user", {})).status).toBe(401);
    });

    it("refuses an email field", async () => {
      const { agent } = await signUp(t);
      const res = await agent.post("/update-user", { email: "other@example.com" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Email can not be updated" });
    });
  });
});

describe("configured extra user fields", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: {
        userAdditionalFields: {
          company: { type: "string" },
          plan: { type: "string", input: false, defaultValue: "free" },
        },
      },
    });
  });
  afterAll(() => t.close());

  it("accepts them on sign-up and update-user and shows them on the user", async () => {
    const { agent, user } = await signUp(t, { company: "Acme" });
    expect(user).toMatchObject({ company: "Acme", plan: "free" });
    await agent.post("/update-user", { company: "Globex" });
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.company).toBe("Globex");
    const refused = await agent.post("/update-user", { plan: "enterprise" });
    expect(refused.status).toBe(400);
  });
});

describe("session cookie cache off (the default)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("sets no session_data cookie and always reads the database", async () => {
    const { agent, user, setCookies } = await signUp(t).then(async (s) => ({
      ...s,
      setCookies: (await s.agent.get("/get-session")).setCookies,
    }));
    expect(setCookies.some((c) => c.includes("session_data"))).toBe(false);
    // Another process on the same SQLite file (the CLI, a second daemon): its commit reaches this one's
    // session reads within a millisecond, the copy in memory included (SQLite's data_version moves).
    const elsewhere = openDatabase(t.ctx.config.databaseURL);
    try {
      await elsewhere.db.updateTable("user").set({ name: "Changed Elsewhere" }).where("id", "=", user.id).execute();
    } finally {
      await elsewhere.close();
    }
    await heardOfChanges(t.ctx);
    expect((await agent.get("/get-session")).body.user.name).toBe("Changed Elsewhere");
  });
});
