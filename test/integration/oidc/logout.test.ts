import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestContext,
  describeEachDialect,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../../helpers/context.ts";
import { codeFlow, registerClient, tokenRequest } from "../../helpers/oidc-rp.ts";

// RP-initiated logout with an exact post_logout_redirect_uri, and back-channel logout tokens to the
// clients whose families the session began.

interface BackChannel {
  url: string;
  tokens: string[];
  close(): Promise<void>;
}

async function startBackChannel(): Promise<BackChannel> {
  const tokens: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      tokens.push(new URLSearchParams(body).get("logout_token") ?? "");
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/backchannel`,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const LANDING = "https://rp.example.com/signed-out";

describeEachDialect("OpenID Provider: logout", (dialect) => {
  let t: TestContext;
  let backChannel: BackChannel;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
    backChannel = await startBackChannel();
  });
  afterAll(async () => {
    await backChannel.close();
    await t.close();
  });

  const endSession = (agent: ReturnType<TestContext["agent"]>, params: Record<string, string>) =>
    agent.get(`/oauth2/end-session?${new URLSearchParams(params)}`);

  it("signs the browser out, revokes its families, tells back-channel clients and returns to the registered URI", async () => {
    const rp = await registerClient(t, {
      skipConsent: true,
      postLogoutRedirectURIs: [LANDING],
      backchannelLogoutURI: backChannel.url,
    });
    const { agent, user } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const res = await endSession(agent, {
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: LANDING,
      state: "s1",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${LANDING}?state=s1`);
    expect((await agent.get("/get-session")).body).toBeNull();
    const refreshed = await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.body.error).toBe("invalid_grant");

    await expect.poll(() => backChannel.tokens.length).toBe(1);
    const logoutToken = backChannel.tokens[0];
    expect(decodeProtectedHeader(logoutToken).typ).toBe("logout+jwt");
    const jwks = createLocalJWKSet((await t.agent().get("/jwks")).body);
    const { payload } = await jwtVerify(logoutToken, jwks, {
      issuer: TEST_ORIGIN,
      audience: rp.client.id,
      currentDate: new Date(t.clock.now),
    });
    expect(payload.sub).toBe(user.id);
    expect(payload.events).toEqual({ "http://schemas.openid.net/event/backchannel-logout": {} });
    const idClaims = await jwtVerify(tokens.id_token, jwks, { currentDate: new Date(t.clock.now) });
    expect(payload.sid).toBe(idClaims.payload.sid);
    expect(payload).not.toHaveProperty("nonce");
  });

  it("attacker: post_logout_redirect_uri must be exactly one the client registered (no open redirect)", async () => {
    const rp = await registerClient(t, { skipConsent: true, postLogoutRedirectURIs: [LANDING] });
    const { agent } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp);
    for (const uri of [`${LANDING}/`, "https://evil.example/", `${LANDING}?x=1`, "https://RP.example.com/signed-out"]) {
      const res = await endSession(agent, { id_token_hint: tokens.id_token, post_logout_redirect_uri: uri });
      expect(res.headers.get("location"), uri).toBe("/account/error?error=invalid_logout_request");
    }
    // Without a client to vouch for it, no URI is followed at all.
    const anonymous = await endSession(t.agent(), { post_logout_redirect_uri: LANDING });
    expect(anonymous.headers.get("location")).toBe("/account/error?error=invalid_logout_request");
    expect((await agent.get("/get-session")).body).not.toBeNull();
  });

  it("attacker: without the signed-in user's own ID token, nobody is signed out", async () => {
    const rp = await registerClient(t, { skipConsent: true, postLogoutRedirectURIs: [LANDING] });
    const victim = await signUp(t);
    const attacker = await signUp(t);
    const { tokens } = await codeFlow(t, attacker.agent, rp);
    const plain = await endSession(victim.agent, { client_id: rp.client.id, post_logout_redirect_uri: LANDING });
    expect(plain.headers.get("location")).toBe("/account");
    const foreign = await endSession(victim.agent, { id_token_hint: tokens.id_token });
    expect(foreign.headers.get("location")).toBe("/account");
    expect((await victim.agent.get("/get-session")).body).not.toBeNull();
  });

  it("attacker: an unsigned or HMAC-signed ID token hint is refused (alg none, HS256 keyed with the public key)", async () => {
    const rp = await registerClient(t, { skipConsent: true, postLogoutRedirectURIs: [LANDING] });
    const { agent, user } = await signUp(t);
    const claims = { iss: TEST_ORIGIN, sub: user.id, aud: rp.client.id };
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    const rsa = ((await t.agent().get("/jwks")).body.keys as { alg: string; n: string }[]).find(
      (key) => key.alg === "RS256",
    );
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(rsa?.n));
    for (const hint of [none, hs256]) {
      const res = await endSession(agent, { id_token_hint: hint, post_logout_redirect_uri: LANDING });
      expect(res.headers.get("location")).toBe("/account/error?error=invalid_logout_request");
    }
    expect((await agent.get("/get-session")).body).not.toBeNull();
  });

  it("an expired ID token still names who signs out; a signed-out browser just goes on", async () => {
    const rp = await registerClient(t, { skipConsent: true, postLogoutRedirectURIs: [LANDING] });
    const { agent } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp);
    t.clock.advance(2 * 3600_000);
    const res = await endSession(agent, { id_token_hint: tokens.id_token, post_logout_redirect_uri: LANDING });
    expect(res.headers.get("location")).toBe(LANDING);
    const again = await endSession(agent, { id_token_hint: tokens.id_token });
    expect(again.headers.get("location")).toBe("/account/signed-out");
  });
});
