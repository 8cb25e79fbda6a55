import { describe, expect, it } from "vitest";
import { signHS256 } from "../../src/crypto/jwt.ts";
import { createEmailVerificationToken } from "../../src/services/email-verification.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

describeEachDialect("email verification", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const verifyPath = (token: string, callbackURL?: string) =>
    `/api/auth/verify-email?token=${encodeURIComponent(token)}${callbackURL ? `&callbackURL=${encodeURIComponent(callbackURL)}` : ""}`;

  describe("GET /verify-email", () => {
    it("verifies the address from the link mailed on sign-up and redirects to the callback", async () => {
      const { agent, email } = await signUp(t, { callbackURL: "/welcome" });
      const link = await mailedLink(mailbox, email, "verify");
      expect(link.origin + link.pathname).toBe("http://localhost:3000/api/auth/verify-email");
      expect(link.searchParams.get("callbackURL")).toBe("/welcome");

      const res = await agent.get(pathOf(link));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/welcome");
      const session = await agent.get("/get-session", { query: { disableCookieCache: true } });
      expect(session.body.user.emailVerified).toBe(true);
    });

    it("answers JSON without a callbackURL", async () => {
      const { email } = await signUp(t);
      const token = await createEmailVerificationToken(t.ctx, { email });
      const res = await t.agent().get(verifyPath(token));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true, user: null });
      const row = await t.ctx.db
        .selectFrom("user")
        .select("emailVerified")
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.emailVerified)).toBe(true);
    });

    it("redirects an expired token with error=token_expired, or answers 401 without a callback", async () => {
      const { email } = await signUp(t);
      const token = await createEmailVerificationToken(t.ctx, { email }, -10);
      const redirected = await t.agent().get(verifyPath(token, "/done"));
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get("location")).toBe("/done?error=token_expired");
      const json = await t.agent().get(verifyPath(token));
      expect(json.status).toBe(401);
      expect(json.body).toEqual({ code: "TOKEN_EXPIRED", message: "token_expired" });
    });

    it("redirects a forged or mangled token with error=invalid_token", async () => {
      const { email } = await signUp(t);
      const forged = await signHS256("another-secret-another-secret-another-secret", { email }, 3600);
      const res = await t.agent().get(verifyPath(forged, "http://localhost:3000/done?step=2"));
      expect(res.headers.get("location")).toBe("http://localhost:3000/done?step=2&error=invalid_token");
      const mangled = await t.agent().get(verifyPath("not-a-jwt"));
      expect(mangled.status).toBe(401);
      expect(mangled.body).toEqual({ code: "INVALID_TOKEN", message: "invalid_token" });
      const noEmail = await signHS256(t.ctx.secret, { email: "not-an-email" }, 3600);
      expect((await t.agent().get(verifyPath(noEmail, "/done"))).headers.get("location")).toBe(
        "/done?error=invalid_token",
      );
    });

    it("redirects a token for an address nobody has with error=user_not_found", async () => {
      const token = await createEmailVerificationToken(t.ctx, { email: "ghost@example.com" });
      expect((await t.agent().get(verifyPath(token, "/done"))).headers.get("location")).toBe(
        "/done?error=user_not_found",
      );
      const json = await t.agent().get(verifyPath(token));
      expect(json.body).toEqual({ code: "USER_NOT_FOUND", message: "user_not_found" });
    });

    it("redirects an email-change token followed without the owner's session with error=unauthorized", async () => {
      const { email } = await signUp(t);
      const other = await signUp(t);
      const token = await createEmailVerificationToken(t.ctx, { email, updateTo: "new.address@example.com" });
      expect((await t.agent().get(verifyPath(token, "/done"))).headers.get("location")).toBe(
        "/done?error=unauthorized",
      );
      const json = await other.agent.get(verifyPath(token));
      expect(json.status).toBe(401);
      expect(json.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
      const row = await t.ctx.db.selectFrom("user").select("email").where("email", "=", email).executeTakeFirst();
      expect(row?.email).toBe(email);
    });

    it("refuses an untrusted callbackURL with 403", async () => {
      const { email } = await signUp(t);
      const token = await createEmailVerificationToken(t.ctx, { email });
      const res = await t.agent().get(verifyPath(token, "https://evil.example.net/x"));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    });
  });

  describe("POST /send-verification-email", () => {
    it("answers the same for an unknown address and mails only real, unverified users", async () => {
      const { email } = await signUp(t);
      await t.ctx.settle();
      const seen = mailCount(mailbox, email);
      const known = await t
        .agent()
        .post("/send-verification-email", { email: email.toUpperCase(), callbackURL: "/again" });
      const unknown = await t.agent().post("/send-verification-email", { email: "nobody.here@example.com" });
      expect(known.status).toBe(200);
      expect(known.body).toEqual({ status: true });
      expect(unknown.body).toEqual(known.body);
      const link = await mailedLink(mailbox, email, "verify", seen);
      expect(link.searchParams.get("callbackURL")).toBe("/again");
      await t.ctx.settle();
      expect(mailbox.to("nobody.here@example.com")).toHaveLength(0);
    });

    it("refuses a signed-in caller whose address is verified or not the one asked for", async () => {
      const { agent, email } = await signUp(t);
      const notMine = await agent.post("/send-verification-email", { email: "someone.else@example.com" });
      expect(notMine.status).toBe(400);
      expect(notMine.body.message).toBe("You can only send a verification email to your own email");
      await agent.get(verifyPath(await createEmailVerificationToken(t.ctx, { email })));
      const verified = await agent.post("/send-verification-email", { email });
      expect(verified.status).toBe(400);
      expect(verified.body.message).toBe("You can only send a verification email to an unverified email");
    });

    it("refuses an invalid email as a validation error", async () => {
      const res = await t.agent().post("/send-verification-email", { email: "nope" });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
    });
  });
});

describeEachDialect("required email verification with auto sign-in", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  const options = {
    dialect,
    env: { AUTH_REQUIRE_EMAIL_VERIFICATION: "on" },
    config: { emailVerification: { autoSignInAfterVerification: true } },
  };
  useMailContext(options, (ready) => ({ t, mailbox } = ready));

  it("signs up without a session, refuses sign-in with 403 and a fresh mail, then signs in once from the link", async () => {
    const agent = t.agent();
    const email = "must.verify@example.com";
    const password = "correct-horse-battery";
    const signUpRes = await agent.post("/sign-up/email", { name: "V", email, password });
    expect(signUpRes.status).toBe(200);
    expect(signUpRes.body.token).toBeNull();
    expect(agent.jar.size).toBe(0);
    await mailedLink(mailbox, email, "verify");

    const seen = mailCount(mailbox, email);
    const refused = await agent.post("/sign-in/email", { email, password });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    const link = await mailedLink(mailbox, email, "verify", seen);
    expect(mailbox.to(email).length).toBe(2);

    const browser = t.agent();
    const followed = await browser.get(pathOf(link));
    expect(followed.status).toBe(302);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email, emailVerified: true });

    // A replayed link verifies nothing new and opens no second session.
    const replay = t.agent();
    await replay.get(pathOf(link));
    expect(replay.jar.size).toBe(0);
    const sessions = await t.ctx.db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.userId")
      .select("session.id")
      .where("user.email", "=", email)
      .execute();
    expect(sessions).toHaveLength(1);

    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);
  });
});

describe("verification mail on sign-up turned off", () => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ env: { AUTH_SEND_VERIFICATION_ON_SIGN_UP: "off" } }, (ready) => ({ t, mailbox } = ready));

  it("signs up and in without mailing anything", async () => {
    const { email, token, password } = await signUp(t);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);
    await t.ctx.settle();
    expect(mailbox.to(email)).toHaveLength(0);
  });
});
