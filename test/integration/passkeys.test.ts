import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { challengeCookieOf, passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { captureLog } from "../helpers/security-log.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";

// Passkeys end to end through the app, with a software authenticator building real WebAuthn answers.

describeEachDialect("passkeys: registration and sign-in", (dialect) => {
  let t: TestContext;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestContext({ dialect, logger: log.logger });
  });
  afterAll(() => t.close());

  it("offers creation options for the signed-in user and binds the challenge to the browser", async () => {
    const { agent, email } = await signUp(t);
    const res = await agent.get("/passkey/generate-register-options");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rp: { name: "authd", id: "localhost" },
      user: { id: expect.any(String), name: email, displayName: email },
      pubKeyCredParams: [-8, -7, -257].map((alg) => ({ alg, type: "public-key" })),
      timeout: 60000,
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred", requireResidentKey: false },
      extensions: { credProps: true },
    });
    const cookie = res.setCookies.find((line) => line.startsWith("better-auth.better-auth-passkey="));
    expect(cookie).toMatch(/; Max-Age=300; Path=\/; HttpOnly; SameSite=Lax$/);
    // The cookie holds a handle, never the challenge itself.
    expect(decodeURIComponent(challengeCookieOf(agent) ?? "")).not.toContain(res.body.challenge);
  });

  it("registers a passkey, then signs a browser with no session in with it", async () => {
    const { agent, user } = await signUp(t);
    const authenticator = new SoftAuthenticator();
    log.clear();
    const { verified } = await registerPasskey(agent, authenticator, {}, "laptop");
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      name: "laptop",
      publicKey: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      userId: user.id,
      credentialID: authenticator.last.id.toString("base64url"),
      counter: 1,
      deviceType: "singleDevice",
      backedUp: false,
      transports: "internal",
      createdAt: expect.any(String),
      aaguid: "00000000-0000-0000-0000-000000000000",
      id: expect.any(String),
    });
    expect(verified.setCookies.some((line) => /better-auth-passkey=;.*Max-Age=0/.test(line))).toBe(true);
    expect(log.events("passkey_added")).toMatchObject([{ userId: user.id, passkeyId: verified.body.id }]);

    const browser = t.agent();
    const signedIn = await passkeySignIn(browser, authenticator);
    expect(signedIn.options.body).toEqual({
      rpId: "localhost",
      challenge: expect.any(String),
      timeout: 60000,
      userVerification: "preferred",
    });
    expect(signedIn.verified.status).toBe(200);
    expect(signedIn.verified.body.session).toMatchObject({ userId: user.id, token: expect.any(String) });
    expect(Object.keys(signedIn.verified.body)).toEqual(["session"]);
    expect(challengeCookieOf(browser)).toBeUndefined();
    const session = await browser.get("/get-session");
    expect(session.body.user.id).toBe(user.id);
    expect(log.events("sign_in").at(-1)).toMatchObject({ outcome: "success", method: "passkey", strongFactor: true });
    const [row] = await t.ctx.db.selectFrom("passkey").selectAll().where("userId", "=", user.id).execute();
    expect(Number(row.counter)).toBe(2);
  });

  it("lists the signed-in user's own passkeys in the request options", async () => {
    const { agent } = await signUp(t);
    const authenticator = new SoftAuthenticator();
    await registerPasskey(agent, authenticator, { transports: null });
    const options = await agent.post("/passkey/generate-authenticate-options", {});
    expect(options.body.allowCredentials).toEqual([
      { id: authenticator.last.id.toString("base64url"), type: "public-key" },
    ]);
    const again = await agent.get("/passkey/generate-register-options");
    expect(again.body.excludeCredentials).toEqual([
      { id: authenticator.last.id.toString("base64url"), type: "public-key" },
    ]);
  });

  it("stores no transports when the browser reports none (1.3.4 answers 500)", async () => {
    const { agent } = await signUp(t);
    const { verified } = await registerPasskey(agent, new SoftAuthenticator(), { transports: null });
    expect(verified.status).toBe(200);
    expect(verified.body.transports).toBeNull();
    expect(verified.body.name).toBeNull();
  });

  it("accepts a synced passkey whose counter stays 0", async () => {
    const { agent, user } = await signUp(t);
    const authenticator = new SoftAuthenticator("http://localhost:3000", "localhost", false);
    await registerPasskey(agent, authenticator);
    for (let i = 0; i < 2; i++) {
      const { verified } = await passkeySignIn(t.agent(), authenticator);
      expect(verified.status).toBe(200);
      expect(verified.body.session.userId).toBe(user.id);
    }
  });

  it("keeps a browser's rememberMe false: session cookie without Max-Age, dont_remember sent again", async () => {
    const { agent, email, password } = await signUp(t);
    const authenticator = new SoftAuthenticator();
    await registerPasskey(agent, authenticator);
    const browser = t.agent();
    await browser.post("/sign-in/email", { email, password, rememberMe: false });
    const { verified } = await passkeySignIn(browser, authenticator);
    expect(verified.status).toBe(200);
    const sessionCookie = verified.setCookies.find((line) => line.startsWith("better-auth.session_token="));
    expect(sessionCookie).toBeDefined();
    expect(sessionCookie).not.toContain("Max-Age");
    expect(verified.setCookies.some((line) => line.startsWith("better-auth.dont_remember=true."))).toBe(true);
  });

  it("refuses the whole family when the feature is off (404)", async () => {
    const off = await createTestContext({ dialect, env: { AUTH_PASSKEY: "off" } });
    try {
      const { agent } = await signUp(off);
      expect((await agent.get("/passkey/generate-register-options")).status).toBe(404);
      expect((await agent.post("/passkey/generate-authenticate-options", {})).status).toBe(404);
      expect((await agent.get("/passkey/list-user-passkeys")).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("deletes a user's passkeys with the user", async () => {
    const { agent, user } = await signUp(t);
    await registerPasskey(agent, new SoftAuthenticator());
    await t.ctx.db.deleteFrom("user").where("id", "=", user.id).execute();
    const rows = await t.ctx.db.selectFrom("passkey").selectAll().where("userId", "=", user.id).execute();
    expect(rows).toEqual([]);
  });
});

describe("passkey routes: who may call them", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("needs a session to register (401 with an empty body) and validates the query first (400)", async () => {
    const anonymous = t.agent();
    const res = await anonymous.get("/passkey/generate-register-options");
    expect(res.status).toBe(401);
    const bad = await anonymous.get("/passkey/generate-register-options", {
      query: { authenticatorAttachment: "usb" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect((await anonymous.get("/passkey/list-user-passkeys")).status).toBe(401);
  });

  it("refuses to register with a session that is no longer fresh", async () => {
    const { agent } = await signUp(t);
    t.clock.advance(86_400_000 + 1000);
    const res = await agent.get("/passkey/generate-register-options");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" });
  });

  it("refuses to add a passkey with an API key's stand-in session or an administrator's impersonation", async () => {
    const { agent, user } = await signUp(t);
    const key = (await agent.post("/api-key/create", { name: "ci" })).body.key as string;
    const byKey = await t.agent().get("/passkey/generate-register-options", { headers: { "x-api-key": key } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe("SESSION_IS_NOT_FRESH");
    expect((await t.agent().get("/passkey/list-user-passkeys", { headers: { "x-api-key": key } })).status).toBe(200);

    const admin = await signUp(t);
    await t.server().post("/admin/set-role", { userId: admin.user.id, role: "admin" });
    expect((await admin.agent.post("/admin/impersonate-user", { userId: user.id })).status).toBe(200);
    const impersonating = await admin.agent.get("/passkey/generate-register-options");
    expect(impersonating.status).toBe(401);
    expect(impersonating.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
  });

  it("answers GET on the POST-only options route with 404", async () => {
    expect((await t.agent().get("/passkey/generate-authenticate-options")).status).toBe(404);
  });

  it("refuses verify-authentication from an untrusted origin (login CSRF)", async () => {
    const res = await t
      .agent()
      .post("/passkey/verify-authentication", { response: {} }, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("INVALID_ORIGIN");
  });
});
