import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRET } from "../helpers/context.ts";
import { LiveAgent, liveSignUp } from "../helpers/live-agent.ts";
import { peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// Tokens authd checks must carry exp and iat: a token without an expiry would stay valid forever.
// The forged tokens below are signed with the right keys, so only the missing claims can refuse them.

type Claims = { exp?: boolean; iat?: boolean };

/** A JWT over `payload` with exp (10 minutes) and iat only where asked. */
async function sign(
  payload: JWTPayload,
  key: Parameters<SignJWT["sign"]>[0],
  header: { alg: string; kid?: string },
  claims: Claims,
): Promise<string> {
  const jwt = new SignJWT(payload).setProtectedHeader(header);
  if (claims.iat) jwt.setIssuedAt();
  if (claims.exp) jwt.setExpirationTime("10m");
  return jwt.sign(key);
}

const verificationToken = (payload: JWTPayload, claims: Claims) =>
  sign(payload, new TextEncoder().encode(TEST_SECRET), { alg: "HS256" }, claims);

describe("exp and iat on the tokens authd checks", () => {
  let authd: RunningAuthd;
  let base: string;
  let jwks: Server;
  let signIdToken: (payload: JWTPayload, claims: Claims) => Promise<string>;

  beforeAll(async () => {
    // A provider's key set on loopback: authd fetches it to check ID tokens sent to sign-in/social.
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    jwks = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    const keysURL = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    signIdToken = (payload, claims) =>
      sign({ aud: "forge-client", ...payload }, privateKey, { alg: "RS256", kid: "k1" }, claims);
    authd = await startAuthd({
      env: { AUTH_SESSION_COOKIE_CACHE: "on" },
      config: {
        social: {
          forge: {
            clientId: "forge-client",
            clientSecret: "forge-secret",
            authorizationEndpoint: `${keysURL}/authorize`,
            tokenEndpoint: `${keysURL}/token`,
            jwksURI: `${keysURL}/jwks`,
          },
        },
      },
    });
    base = authd.url;
  });
  afterAll(async () => {
    await authd.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const emailVerified = async (agent: LiveAgent) =>
    ((await agent.get("/get-session", { disableCookieCache: "true" })).json as { user: { emailVerified: boolean } })
      .user.emailVerified;

  it("refuses an email verification token without exp or without iat, and accepts one with both", async () => {
    const { agent, email } = await liveSignUp(base);
    for (const claims of [{}, { iat: true }, { exp: true }] satisfies Claims[]) {
      const token = await verificationToken({ email }, claims);
      const res = await peerRequest(base, `/api/auth/verify-email?token=${token}`);
      expect(res.status, JSON.stringify(claims)).toBe(401);
      expect(res.json).toEqual({ code: "INVALID_TOKEN", message: "invalid_token" });
      const redirected = await peerRequest(base, `/api/auth/verify-email?token=${token}&callbackURL=/done`);
      expect(redirected.headers.location).toBe("/done?error=invalid_token");
    }
    expect(await emailVerified(agent)).toBe(false);
    const complete = await peerRequest(
      base,
      `/api/auth/verify-email?token=${await verificationToken({ email }, { exp: true, iat: true })}`,
    );
    expect(complete.status).toBe(200);
    expect(await emailVerified(agent)).toBe(true);
  });

  it("refuses an email-change confirmation without exp", async () => {
    const { agent, email } = await liveSignUp(base);
    const token = await verificationToken(
      { email, updateTo: "moved@example.com", requestType: "change-email-verification" },
      { iat: true },
    );
    const res = await agent.get("/verify-email", { token });
    expect(res.status).toBe(401);
    expect(
      ((await agent.get("/get-session", { disableCookieCache: "true" })).json as { user: { email: string } }).user
        .email,
    ).toBe(email);
  });

  it("refuses a provider's ID token without exp or without iat on sign-in/social", async () => {
    const profile = { sub: "forged-1", email: "forged@example.com", email_verified: true };
    for (const claims of [{}, { iat: true }, { exp: true }] satisfies Claims[]) {
      const res = await new LiveAgent(base).post("/sign-in/social", {
        provider: "forge",
        idToken: { token: await signIdToken(profile, claims) },
      });
      expect(res.status, JSON.stringify(claims)).toBe(401);
      expect(res.json).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    }
    const valid = await new LiveAgent(base).post("/sign-in/social", {
      provider: "forge",
      idToken: { token: await signIdToken(profile, { exp: true, iat: true }) },
    });
    expect(valid.status, valid.text).toBe(200);
  });

  it("refuses a signed session_data cookie without an expiry (it would keep a revoked session alive)", async () => {
    const { agent } = await liveSignUp(base);
    const cookieHeader = () => [...agent.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const cached = JSON.parse(
      Buffer.from(agent.jar.get("better-auth.session_data") ?? "", "base64url").toString("utf8"),
    ) as Record<string, unknown>;
    const { session, user } = cached;
    const signature = createHmac("sha256", TEST_SECRET).update(JSON.stringify({ session, user })).digest("base64url");
    const forged = Buffer.from(JSON.stringify({ session, user, signature })).toString("base64url");
    // Revoke the session behind the agent's back, keeping its cookies.
    const signOut = await peerRequest(base, "/api/auth/sign-out", {
      method: "POST",
      headers: { cookie: cookieHeader(), origin: agent.origin },
    });
    expect(signOut.status).toBe(200);
    agent.jar.set("better-auth.session_data", forged);
    expect((await agent.get("/get-session")).json).toBeNull();
  });
});
