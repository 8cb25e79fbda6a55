import { randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { hmacSha256Base64Url } from "../../src/crypto/hmac.ts";
import { insertVerification } from "../../src/db/repositories/verifications.ts";
import { createCodeForServer, readLiveCode } from "../../src/services/email-otp/email-otp.ts";
import { createEmailVerificationToken } from "../../src/services/email-verification.ts";
import { redeemCode } from "../../src/services/two-factor/mailed-code.ts";
import { Agent } from "../helpers/agent.ts";
import {
  createTestContext,
  describeEachDialect,
  signUp,
  TEST_ORIGIN,
  TEST_SECRET,
  type TestContext,
} from "../helpers/context.ts";

// Issue 26, item 2: what AUTH_SECRET_PREVIOUS keeps working across a rotation (codes and tokens hashed at
// rest with the old secret, sealed copies), and what it deliberately does not: proofs whose signature is
// all there is (the session_data cookie cache, email-verification links), which a leaked old secret could
// mint at will. The daemons themselves, cookies, TOTP and JWT keys: test/e2e/secret-rotation.test.ts.

const NEW_SECRET = randomBytes(48).toString("base64");

describeEachDialect("AUTH_SECRET_PREVIOUS", (dialect) => {
  const opened: TestContext[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => t.close()));
  });

  /** The old daemon (TEST_SECRET) and the new one (NEW_SECRET, the old as previous) on one database. */
  async function rotated(env: Record<string, string> = {}): Promise<{ before: TestContext; after: TestContext }> {
    const before = await createTestContext({ dialect, env });
    opened.push(before);
    const after = await createTestContext({
      databaseURL: before.ctx.config.databaseURL,
      env: { ...env, AUTH_SECRET: NEW_SECRET, AUTH_SECRET_PREVIOUS: TEST_SECRET },
    });
    opened.push(after);
    return { before, after };
  }

  /** A browser on `t` holding another browser's cookies. */
  function carry(t: TestContext, from: Agent): Agent {
    const agent = new Agent(t.app, "/api/auth", TEST_ORIGIN);
    for (const [name, value] of from.jar) agent.jar.set(name, value);
    return agent;
  }

  it("finds an email code hashed and sealed under the old secret, and signs in with it once", async () => {
    const { before, after } = await rotated({ AUTH_EMAIL_OTP: "on" });
    const { email } = await signUp(before);
    const code = await createCodeForServer(before.ctx, email, "sign-in");
    expect(await readLiveCode(after.ctx, email, "sign-in")).toBe(code);
    const browser = after.agent();
    const res = await browser.post("/sign-in/email-otp", { email, otp: code });
    expect(res.status, res.text).toBe(200);
    expect((await after.agent().post("/sign-in/email-otp", { email, otp: code })).status).toBe(400);
  });

  it("accepts a mailed two-factor code hashed under the old secret; a wrong one still counts", async () => {
    const { after } = await rotated();
    const now = after.ctx.now();
    // As one-time-codes.ts stores it: "{wrong tries}:{keyed hash of identifier NUL code}".
    const stored = `0:${hmacSha256Base64Url(TEST_SECRET, "2fa-otp-challenge-1\u0000428913")}`;
    await insertVerification(after.ctx.db, "2fa-otp-challenge-1", stored, now + 60_000, now);
    await expect(redeemCode(after.ctx, "challenge-1", "000000")).rejects.toMatchObject({ code: "INVALID_CODE" });
    await expect(redeemCode(after.ctx, "challenge-1", "428913")).resolves.toBeUndefined();
  });

  it("ignores a session_data cache signed under the old secret: a revoked session is not brought back", async () => {
    const { before, after } = await rotated({ AUTH_SESSION_COOKIE_CACHE: "on" });
    const kept = await signUp(before);
    const revoked = await signUp(before);
    expect(revoked.agent.jar.size).toBeGreaterThan(1);
    // Under the new secret the old cache is skipped and the session read instead: a live one still works,
    expect((await carry(after, kept.agent).get("/get-session")).body.user.id).toBe(kept.user.id);
    // and once a session is gone, its old cache (which anyone holding that secret could make) counts for nothing.
    await after.ctx.db.deleteFrom("session").where("userId", "=", revoked.user.id).execute();
    expect((await carry(after, revoked.agent).get("/get-session")).body).toBeNull();
  });

  it("refuses an email-verification link signed under the old secret (the user asks for a new one)", async () => {
    const { before, after } = await rotated();
    const { email } = await signUp(before);
    const token = await createEmailVerificationToken(before.ctx, { email });
    const res = await after.agent().get("/verify-email", { query: { token } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "INVALID_TOKEN" });
    const fresh = await createEmailVerificationToken(after.ctx, { email });
    expect((await after.agent().get("/verify-email", { query: { token: fresh } })).status).toBe(200);
  });
});
