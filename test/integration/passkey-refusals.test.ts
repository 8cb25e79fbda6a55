import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { challengeCookieOf, passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { captureLog } from "../helpers/security-log.ts";
import { FLAGS, SoftAuthenticator } from "../helpers/soft-authenticator.ts";

// The attacker's side of the passkey ceremonies: bent origins and rp ids, replays, unknown and foreign
// credentials, counters going back, banned users, challenges used twice or across browsers.

const failed = (status: number, code: string) =>
  expect.objectContaining({ status, body: expect.objectContaining({ code }) });

describeEachDialect("passkeys: refusals", (dialect) => {
  let t: TestContext;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestContext({ dialect, logger: log.logger });
  });
  afterAll(() => t.close());

  async function userWithPasskey(counting = true) {
    const signedUp = await signUp(t);
    const authenticator = new SoftAuthenticator("http://localhost:3000", "localhost", counting);
    const { verified } = await registerPasskey(signedUp.agent, authenticator);
    expect(verified.status).toBe(200);
    return { ...signedUp, authenticator, passkey: verified.body };
  }

  it("refuses a registration made for another origin or another rp id", async () => {
    const { agent } = await signUp(t);
    const wrongOrigin = await registerPasskey(agent, new SoftAuthenticator(), { origin: "https://evil.example" });
    expect(wrongOrigin.verified).toEqual(failed(400, "FAILED_TO_VERIFY_REGISTRATION"));
    const wrongRp = await registerPasskey(agent, new SoftAuthenticator(), { rpId: "evil.example" });
    expect(wrongRp.verified).toEqual(failed(400, "FAILED_TO_VERIFY_REGISTRATION"));
    expect((await agent.get("/passkey/list-user-passkeys")).body).toEqual([]);
  });

  it("refuses a sign-in signed for another origin or another rp id, and a sign-in answer to a registration", async () => {
    const { authenticator } = await userWithPasskey();
    const origin = await passkeySignIn(t.agent(), authenticator, { origin: "http://localhost:4000" });
    expect(origin.verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
    const rp = await passkeySignIn(t.agent(), authenticator, { rpId: "example.com" });
    expect(rp.verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
    const type = await passkeySignIn(t.agent(), authenticator, { type: "webauthn.create" });
    expect(type.verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
    expect(
      origin.verified.setCookies.some((line) => line.includes("session_token=") && !line.includes("Max-Age=0")),
    ).toBe(false);
  });

  it("uses a challenge once: a replayed answer, with or without the cookie, signs nobody in", async () => {
    const { authenticator } = await userWithPasskey();
    const browser = t.agent();
    const options = await browser.post("/passkey/generate-authenticate-options", {});
    const cookie = challengeCookieOf(browser);
    const response = authenticator.assert(options.body);
    expect((await browser.post("/passkey/verify-authentication", { response })).status).toBe(200);
    const thief = t.agent();
    thief.jar.set("better-auth.better-auth-passkey", cookie ?? "");
    expect(await thief.post("/passkey/verify-authentication", { response })).toEqual(
      failed(400, "CHALLENGE_NOT_FOUND"),
    );
    // A fresh challenge does not revive the old answer either: it signed the old challenge.
    await thief.post("/passkey/generate-authenticate-options", {});
    expect(await thief.post("/passkey/verify-authentication", { response })).toEqual(
      failed(400, "AUTHENTICATION_FAILED"),
    );
  });

  it("gives exactly one session to 16 concurrent uses of one challenge", async () => {
    const { authenticator } = await userWithPasskey(false);
    const browser = t.agent();
    const options = await browser.post("/passkey/generate-authenticate-options", {});
    const response = authenticator.assert(options.body);
    const cookie = browser.cookieHeader();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        t.agent().post("/passkey/verify-authentication", { response }, { headers: { cookie } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body?.code === "CHALLENGE_NOT_FOUND")).toHaveLength(15);
  });

  it("refuses a challenge that has expired, belongs to the other ceremony, or was never this browser's", async () => {
    const { agent, authenticator } = await userWithPasskey();
    const browser = t.agent();
    const options = await browser.post("/passkey/generate-authenticate-options", {});
    t.clock.advance(301_000);
    const late = await browser.post("/passkey/verify-authentication", { response: authenticator.assert(options.body) });
    expect(late).toEqual(failed(400, "CHALLENGE_NOT_FOUND"));

    const registration = await agent.get("/passkey/generate-register-options");
    const crossed = await agent.post("/passkey/verify-authentication", {
      response: authenticator.assert(registration.body),
    });
    expect(crossed).toEqual(failed(400, "CHALLENGE_NOT_FOUND"));

    const other = await t.agent().post("/passkey/generate-authenticate-options", {});
    const noCookie = await t
      .agent()
      .post("/passkey/verify-authentication", { response: authenticator.assert(other.body) });
    expect(noCookie).toEqual(failed(400, "CHALLENGE_NOT_FOUND"));
    const forged = t.agent();
    forged.jar.set("better-auth.better-auth-passkey", "abc.forged%3D");
    expect(await forged.post("/passkey/verify-authentication", { response: authenticator.assert(other.body) })).toEqual(
      failed(400, "CHALLENGE_NOT_FOUND"),
    );
  });

  it("answers an unknown credential with 401 PASSKEY_NOT_FOUND and logs the failed sign-in", async () => {
    const { authenticator } = await userWithPasskey();
    const stranger = new SoftAuthenticator();
    stranger.register({ challenge: "unused" });
    log.clear();
    const { verified } = await passkeySignIn(t.agent(), stranger);
    expect(verified).toEqual(failed(401, "PASSKEY_NOT_FOUND"));
    expect(verified.body.message).toBe("Passkey not found");
    expect(log.events("sign_in")).toMatchObject([
      { outcome: "failure", method: "passkey", reason: "passkey_not_found" },
    ]);
    // A known credential id, signed with another key.
    const impostor = { ...stranger.last, id: authenticator.last.id };
    const forgedKey = await passkeySignIn(t.agent(), authenticator, { credential: impostor });
    expect(forgedKey.verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
  });

  it("refuses a counter that goes back (a cloned authenticator) and logs it", async () => {
    const { authenticator, user, passkey } = await userWithPasskey();
    expect((await passkeySignIn(t.agent(), authenticator, { counter: 5 })).verified.status).toBe(200);
    log.clear();
    for (const counter of [4, 5, 0]) {
      const { verified } = await passkeySignIn(t.agent(), authenticator, { counter });
      expect(verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
    }
    expect(log.events("passkey_counter_rollback")).toHaveLength(3);
    expect(log.events("passkey_counter_rollback")[0]).toMatchObject({ userId: user.id, passkeyId: passkey.id });
    expect((await passkeySignIn(t.agent(), authenticator, { counter: 6 })).verified.status).toBe(200);
  });

  it("refuses an answer without user presence, and without user verification when it is required", async () => {
    const { authenticator } = await userWithPasskey();
    const absent = await passkeySignIn(t.agent(), authenticator, { flags: FLAGS.UV });
    expect(absent.verified).toEqual(failed(400, "AUTHENTICATION_FAILED"));
    const strict = await createTestContext({ dialect, config: { passkey: { userVerification: "required" } } });
    try {
      const { agent } = await signUp(strict);
      const unverified = await registerPasskey(agent, new SoftAuthenticator(), { flags: FLAGS.UP | FLAGS.AT });
      expect(unverified.verified).toEqual(failed(400, "FAILED_TO_VERIFY_REGISTRATION"));
      const key = new SoftAuthenticator();
      expect((await registerPasskey(agent, key)).verified.status).toBe(200);
      expect((await passkeySignIn(strict.agent(), key, { flags: FLAGS.UP })).verified.status).toBe(400);
      expect((await passkeySignIn(strict.agent(), key)).verified.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("refuses a banned user's passkey with the ban message and starts no session", async () => {
    const { authenticator, user } = await userWithPasskey();
    await t.ctx.db.updateTable("user").set({ banned: true, banReason: "spam" }).where("id", "=", user.id).execute();
    const browser = t.agent();
    const { verified } = await passkeySignIn(browser, authenticator);
    expect(verified).toEqual(failed(403, "BANNED_USER"));
    expect(browser.cookie("session_token")).toBeUndefined();
    const sessions = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
    expect(sessions).toHaveLength(1); // the sign-up's only
  });

  it("refuses a credential already registered, to the same or another user", async () => {
    const alice = await userWithPasskey();
    const bob = await signUp(t);
    const options = await bob.agent.get("/passkey/generate-register-options");
    const replayed = alice.authenticator.register(options.body);
    replayed.id = alice.passkey.credentialID;
    replayed.rawId = alice.passkey.credentialID;
    // Same credential id, Bob's own key: refused by the unique credential id.
    const attestation = Buffer.from(replayed.response.attestationObject, "base64url");
    const newId = Buffer.from(alice.authenticator.last.id);
    const oldId = Buffer.from(alice.passkey.credentialID, "base64url");
    attestation.set(oldId, attestation.indexOf(newId));
    replayed.response.attestationObject = attestation.toString("base64url");
    const res = await bob.agent.post("/passkey/verify-registration", { response: replayed });
    expect(res).toEqual(failed(400, "FAILED_TO_VERIFY_REGISTRATION"));
    expect((await bob.agent.get("/passkey/list-user-passkeys")).body).toEqual([]);
  });

  it("refuses another user's registration challenge, and a signed-in user's challenge answered by someone else's passkey", async () => {
    const alice = await signUp(t);
    const bob = await userWithPasskey();
    const aliceOptions = await alice.agent.get("/passkey/generate-register-options");
    const stolen = bob.agent.cookieHeader().replace(/better-auth\.better-auth-passkey=[^;]*/, "");
    const res = await bob.agent.post(
      "/passkey/verify-registration",
      { response: new SoftAuthenticator().register(aliceOptions.body) },
      { headers: { cookie: `${stolen}; better-auth.better-auth-passkey=${challengeCookieOf(alice.agent)}` } },
    );
    expect(res).toEqual(failed(401, "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY"));

    // Alice, signed in, asks for sign-in options: only her passkeys may answer them.
    const options = await alice.agent.post("/passkey/generate-authenticate-options", {});
    const answer = bob.authenticator.assert(options.body);
    expect(await alice.agent.post("/passkey/verify-authentication", { response: answer })).toEqual(
      failed(400, "AUTHENTICATION_FAILED"),
    );
  });

  it("refuses hostile bodies with 400, never 500", async () => {
    const { agent } = await signUp(t);
    await agent.get("/passkey/generate-register-options");
    for (const response of [{}, { id: 5 }, { id: "x", response: "nope" }, { id: "x", rawId: "x", response: {} }]) {
      expect((await agent.post("/passkey/verify-registration", { response })).status).toBe(400);
      await agent.get("/passkey/generate-register-options");
    }
    expect((await agent.post("/passkey/verify-registration", {})).body.code).toBe("VALIDATION_ERROR");
    await agent.post("/passkey/generate-authenticate-options", {});
    const bogus = await agent.post("/passkey/verify-authentication", { response: { id: 5 } });
    expect(bogus).toEqual(failed(401, "PASSKEY_NOT_FOUND"));
    const noOptions = await t.agent().post("/passkey/verify-authentication", { response: null });
    expect(noOptions.body.code).toBe("VALIDATION_ERROR");
  });
});
