import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";

const PASSWORD = "correct-horse-battery";
const INVALID = { code: "INVALID_USERNAME_OR_PASSWORD", message: "invalid username or password" };

describeEachDialect("username sign-up and sign-in", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  describe("POST /sign-up/email with a username", () => {
    it("stores the username lower-cased and defaults displayUsername to the username as given", async () => {
      const { agent, user } = await signUp(t, { username: "Alice_01" });
      expect(user).toMatchObject({ username: "alice_01", displayUsername: "Alice_01" });
      const session = await agent.get("/get-session");
      expect(session.body.user).toMatchObject({ username: "alice_01", displayUsername: "Alice_01" });
      const withDisplay = await signUp(t, { username: "Carol.D", displayUsername: "Captain Marvel" });
      expect(withDisplay.user).toMatchObject({ username: "carol.d", displayUsername: "Captain Marvel" });
    });

    it("refuses usernames that are too short, too long or have other characters with 422, creating no user", async () => {
      const email = "refused@example.com";
      const attempt = (username: string) =>
        t.agent().post("/sign-up/email", { name: "R", email, password: PASSWORD, username });
      expect((await attempt("ab")).body).toEqual({ code: "USERNAME_IS_TOO_SHORT", message: "username is too short" });
      expect((await attempt("a".repeat(31))).body).toEqual({
        code: "USERNAME_IS_TOO_LONG",
        message: "username is too long",
      });
      for (const bad of ["has space", "dash-name", "émile", "bang!"]) {
        const res = await attempt(bad);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ code: "USERNAME_IS_INVALID", message: "username is invalid" });
      }
      const later = await t.agent().post("/sign-up/email", { name: "R", email, password: PASSWORD });
      expect(later.status).toBe(200);
    });

    it("refuses a username taken in another case with 422", async () => {
      await signUp(t, { username: "Bob.Smith" });
      for (const variant of ["Bob.Smith", "bob.smith", "BOB.SMITH"]) {
        const res = await t.agent().post("/sign-up/email", {
          name: "B",
          email: `${Math.random()}@example.com`.slice(2),
          password: PASSWORD,
          username: variant,
        });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          code: "USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER",
          message: "username is already taken. please try another.",
        });
      }
    });

    it("lets exactly one of 16 concurrent sign-ups with usernames equal up to case succeed", async () => {
      const variants = Array.from({ length: 16 }, (_, i) =>
        [..."racer.name"].map((ch, j) => ((i >> j) & 1 ? ch.toUpperCase() : ch)).join(""),
      );
      const results = await Promise.all(
        variants.map((username, i) =>
          t.agent().post("/sign-up/email", {
            name: `Racer ${i}`,
            email: `racer${i}@example.com`,
            password: PASSWORD,
            username,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 200)) {
        expect(refused.status).toBe(422);
        expect(refused.body.code).toBe("USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER");
      }
      const count = await t.ctx.db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("username", "=", "racer.name")
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });
  });

  describe("POST /sign-in/username", () => {
    let email: string;
    beforeAll(async () => {
      ({ email } = await signUp(t, { username: "Dave_Grohl" }));
    });

    it("signs in with the username in any case, answering token and the documented user fields", async () => {
      for (const username of ["Dave_Grohl", "DAVE_GROHL", "dave_grohl"]) {
        const agent = t.agent();
        const res = await agent.post("/sign-in/username", { username, password: PASSWORD });
        expect(res.status).toBe(200);
        expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
        expect(Object.keys(res.body.user).sort()).toEqual([
          "createdAt",
          "email",
          "emailVerified",
          "id",
          "image",
          "name",
          "updatedAt",
          "username",
        ]);
        expect(res.body.user).toMatchObject({ email, username: "dave_grohl", emailVerified: false, image: null });
        expect(res.setCookies.find((c) => c.startsWith("better-auth.session_token="))).toMatch(/Max-Age=604800/);
        const session = await agent.get("/get-session");
        expect(session.body.session.token).toBe(res.body.token);
      }
    });

    it("gives a short, unremembered session when rememberMe is false", async () => {
      const agent = t.agent();
      const res = await agent.post("/sign-in/username", {
        username: "dave_grohl",
        password: PASSWORD,
        rememberMe: false,
      });
      expect(res.status).toBe(200);
      expect(res.setCookies.find((c) => c.startsWith("better-auth.session_token="))).not.toMatch(/Max-Age/);
      const { session } = (await agent.get("/get-session")).body;
      expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(86_400_000);
    });

    it("answers the same 401 for a wrong password, an unknown user, and empty fields, setting no cookie", async () => {
      const agent = t.agent();
      for (const body of [
        { username: "dave_grohl", password: "wrong-password-123" },
        { username: "nobody_here", password: PASSWORD },
        { username: "", password: PASSWORD },
        { username: "dave_grohl", password: "" },
      ]) {
        const res = await agent.post("/sign-in/username", body);
        expect(res.status).toBe(401);
        expect(res.body).toEqual(INVALID);
        expect(res.setCookies).toEqual([]);
      }
      expect((await agent.get("/get-session")).body).toBeNull();
    });

    it("answers 401 for a user without a credential account", async () => {
      const { user } = await signUp(t, { username: "no_password" });
      await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
      const res = await t.agent().post("/sign-in/username", { username: "no_password", password: PASSWORD });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    });

    it("checks username length and characters before looking the user up (422), and types with 400", async () => {
      const a = t.agent();
      expect((await a.post("/sign-in/username", { username: "er", password: PASSWORD })).body.code).toBe(
        "USERNAME_IS_TOO_SHORT",
      );
      expect((await a.post("/sign-in/username", { username: "e".repeat(31), password: PASSWORD })).body.code).toBe(
        "USERNAME_IS_TOO_LONG",
      );
      const emailAsName = await a.post("/sign-in/username", { username: email, password: PASSWORD });
      expect(emailAsName.status).toBe(422);
      expect(emailAsName.body.code).toBe("USERNAME_IS_INVALID");
      const numeric = await a.post("/sign-in/username", { username: 12345, password: PASSWORD });
      expect(numeric.status).toBe(400);
      expect(numeric.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
      expect((await a.post("/sign-in/username", { username: "dave_grohl" })).status).toBe(400);
      expect(
        (await a.post("/sign-in/username", { username: "dave_grohl", password: PASSWORD, rememberMe: "no" })).status,
      ).toBe(400);
    });
  });

  describe("POST /update-user with a username", () => {
    it("changes the username, frees the old one, and refuses one another user holds", async () => {
      const { agent } = await signUp(t, { username: "first_name" });
      const other = await signUp(t, { username: "taken_name" });
      expect((await agent.post("/update-user", { username: "Second.Name" })).body).toEqual({ status: true });
      expect((await agent.get("/get-session")).body.user).toMatchObject({
        username: "second.name",
        displayUsername: "Second.Name",
      });
      expect((await t.agent().post("/sign-in/username", { username: "second.name", password: PASSWORD })).status).toBe(
        200,
      );
      expect((await t.agent().post("/sign-in/username", { username: "first_name", password: PASSWORD })).body).toEqual(
        INVALID,
      );
      expect((await agent.post("/update-user", { username: "SECOND.NAME" })).status).toBe(200);
      const taken = await agent.post("/update-user", { username: "TAKEN_NAME" });
      expect(taken.status).toBe(422);
      expect(taken.body.message).toBe("username is already taken. please try another.");
      expect((await agent.post("/update-user", { username: "bad name" })).body.code).toBe("USERNAME_IS_INVALID");
      expect((await other.agent.get("/get-session")).body.user.username).toBe("taken_name");
      expect((await agent.post("/update-user", { displayUsername: "Shown Name" })).status).toBe(200);
      expect((await agent.get("/get-session")).body.user).toMatchObject({
        username: "second.name",
        displayUsername: "Shown Name",
      });
    });
  });
});

describe("username sign-in when email verification is required", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await createTestContext({
      env: { AUTH_SMTP_URL: mailbox.url },
      config: { emailAndPassword: { requireEmailVerification: true } },
    });
  });
  afterAll(async () => {
    await t.close();
    await mailbox.close();
  });

  it("refuses an unverified user with 403 and re-sends the verification mail, but not for a wrong password", async () => {
    const { email } = await signUp(t, { username: "Vera_V" });
    await mailbox.waitFor(email, /verify-email\?token=/);
    const before = mailbox.to(email).length;
    const wrong = await t.agent().post("/sign-in/username", { username: "vera_v", password: "wrong-password-123" });
    expect(wrong.body).toEqual(INVALID);
    const since = Date.now();
    const res = await t.agent().post("/sign-in/username", { username: "vera_v", password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "email not verified" });
    expect(res.setCookies).toEqual([]);
    await mailbox.waitFor(email, /verify-email\?token=/, { since });
    expect(mailbox.to(email).length).toBe(before + 1);
  });

  it("signs in once the email is verified", async () => {
    const { user } = await signUp(t, { username: "verified_v" });
    await t.ctx.db.updateTable("user").set({ emailVerified: true }).where("id", "=", user.id).execute();
    const res = await t.agent().post("/sign-in/username", { username: "VERIFIED_V", password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user.emailVerified).toBe(true);
  });
});

describe("username feature switched off", () => {
  it("answers 404 for /sign-in/username", async () => {
    const t = await createTestContext({ config: { username: { enabled: false } } });
    try {
      const res = await t.agent().post("/sign-in/username", { username: "someone", password: PASSWORD });
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
