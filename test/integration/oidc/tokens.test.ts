import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestContext,
  describeEachDialect,
  SERVER_TOKEN,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../../helpers/context.ts";
import { codeFlow, RP_CALLBACK, registerClient, tokenRequest } from "../../helpers/oidc-rp.ts";

// What the OpenID Provider's tokens are worth after the code flow: userinfo per scope, refresh tokens
// rotated on use with reuse detection, a ban or an ended session ending the family at the next refresh,
// revocation (RFC 7009) and introspection (RFC 7662).

describeEachDialect("OpenID Provider: tokens", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
  });
  afterAll(() => t.close());

  const userinfo = (token: string) =>
    t.agent().get("/oauth2/userinfo", { headers: { authorization: `Bearer ${token}` } });
  const refresh = (rp: Awaited<ReturnType<typeof registerClient>>, token: string) =>
    tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: token });

  it("userinfo answers the granted scopes' claims, groups with roles and organizations, and refuses bad tokens", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent, user, email } = await signUp(t);
    await t
      .server()
      .post(
        "/admin/set-role",
        { userId: user.id, role: "admin" },
        { headers: { authorization: `Bearer ${SERVER_TOKEN}` } },
      );
    await agent.post("/organization/create", { name: "Ops", slug: "ops" });
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid email groups" });
    const answer = await userinfo(tokens.access_token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ sub: user.id, email, email_verified: false, groups: expect.any(Array) });
    expect(answer.body.groups).toEqual(expect.arrayContaining(["org:ops", "org:ops:owner"]));
    const none = await t.agent().get("/oauth2/userinfo");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="authd"');
    const forged = await userinfo("x".repeat(43));
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // A session token is not an access token.
    const sessionToken = (await signUp(t)).token ?? "";
    expect((await userinfo(sessionToken)).status).toBe(401);
    t.clock.advance(3601_000);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it("rotates refresh tokens on use; a replayed one revokes its whole family", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent, user } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const first = await refresh(rp, tokens.refresh_token);
    expect(first.status, first.text).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(first.body.id_token).toEqual(expect.any(String));
    expect((await userinfo(first.body.access_token)).status).toBe(200);

    const replay = await refresh(rp, tokens.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await userinfo(first.body.access_token)).status).toBe(401);
    expect((await refresh(rp, first.body.refresh_token)).body.error).toBe("invalid_grant");
    // Each step is in the audit log (and so goes to webhooks), naming the family, never a token.
    await t.ctx.settle();
    const audit = await t.ctx.db
      .selectFrom("auditEvent")
      .select(["type", "outcome", "data"])
      .where("subjectId", "=", user.id)
      .orderBy("createdAt")
      .execute();
    const types = audit.map((row) => row.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "oidc_tokens_issued",
        "oidc_tokens_refreshed",
        "oidc_token_replayed",
        "oidc_tokens_revoked",
      ]),
    );
    const revoked = audit.find((row) => row.type === "oidc_tokens_revoked");
    expect(JSON.parse(revoked?.data ?? "{}")).toMatchObject({ clientId: rp.client.id, reason: "replay" });
    for (const row of audit)
      for (const token of [tokens.refresh_token, first.body.refresh_token]) expect(row.data).not.toContain(token);
  });

  it("concurrent refreshes with one token rotate it once", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(rp, tokens.refresh_token)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
  });

  it("attacker: another client cannot refresh, revoke or widen a family's tokens", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const other = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    expect((await refresh(other, tokens.refresh_token)).body.error).toBe("invalid_grant");
    const revoked = await tokenRequest(t, other, { token: tokens.refresh_token }, { path: "/oauth2/revoke" });
    expect(revoked.status).toBe(200);
    const wider = await tokenRequest(t, rp, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      scope: "openid email",
    });
    expect(wider.body.error).toBe("invalid_scope");
    expect((await refresh(rp, tokens.refresh_token)).status).toBe(200);
  });

  it("a banned user or a signed-out session ends the family at the next refresh", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const banned = await signUp(t);
    const a = await codeFlow(t, banned.agent, rp, { scope: "openid offline_access" });
    await t
      .server()
      .post("/admin/ban-user", { userId: banned.user.id }, { headers: { authorization: `Bearer ${SERVER_TOKEN}` } });
    expect((await refresh(rp, a.tokens.refresh_token)).body.error).toBe("invalid_grant");
    expect((await userinfo(a.tokens.access_token)).status).toBe(401);

    const signedOut = await signUp(t);
    const b = await codeFlow(t, signedOut.agent, rp, { scope: "openid offline_access" });
    expect((await signedOut.agent.post("/sign-out", {})).status).toBe(200);
    expect((await refresh(rp, b.tokens.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("revocation (RFC 7009): a refresh token ends its family, an access token only itself; unknown tokens are 200", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const one = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const revoke = (token: string) => tokenRequest(t, rp, { token }, { path: "/oauth2/revoke" });
    expect((await revoke(one.tokens.access_token)).status).toBe(200);
    expect((await userinfo(one.tokens.access_token)).status).toBe(401);
    expect((await refresh(rp, one.tokens.refresh_token)).status).toBe(200);

    const two = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    expect((await revoke(two.tokens.refresh_token)).status).toBe(200);
    expect((await userinfo(two.tokens.access_token)).status).toBe(401);
    expect((await refresh(rp, two.tokens.refresh_token)).body.error).toBe("invalid_grant");
    expect((await revoke("unknown-token")).status).toBe(200);
    const unauthenticated = await t.agent().post("/oauth2/revoke", undefined, {
      raw: new URLSearchParams({ token: two.tokens.access_token, client_id: rp.client.id }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "" },
    });
    expect(unauthenticated.status).toBe(401);
  });

  it("introspection (RFC 7662) tells a confidential client what a token is worth, and refuses public clients", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const resourceServer = await registerClient(t, { name: "API" });
    const { agent, user } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const introspect = (token: string, as = resourceServer) =>
      tokenRequest(t, as, { token }, { path: "/oauth2/introspect" });
    const active = await introspect(tokens.access_token);
    expect(active.body).toMatchObject({
      active: true,
      client_id: rp.client.id,
      sub: user.id,
      scope: "openid offline_access",
      token_type: "Bearer",
      iss: TEST_ORIGIN,
    });
    expect((await introspect(tokens.refresh_token)).body.active).toBe(true);
    expect((await introspect("nonsense")).body).toEqual({ active: false });
    await refresh(rp, tokens.refresh_token);
    expect((await introspect(tokens.refresh_token)).body).toEqual({ active: false });
    const spa = await registerClient(t, { isPublic: true });
    expect((await introspect(tokens.access_token, spa)).status).toBe(401);
  });

  it("prunes spent codes, expired access tokens and ended families after a day, keeping live families", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const ended = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    await tokenRequest(t, rp, { token: ended.tokens.refresh_token }, { path: "/oauth2/revoke" });
    const live = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    t.clock.advance(2 * 86_400_000);
    await codeFlow(t, agent, rp);
    const codes = await t.ctx.db.selectFrom("oauthCode").select("id").where("clientId", "=", rp.client.id).execute();
    expect(codes).toHaveLength(1);
    const grants = await t.ctx.db.selectFrom("oauthGrant").select("id").where("clientId", "=", rp.client.id).execute();
    expect(grants).toHaveLength(2);
    expect((await refresh(rp, live.tokens.refresh_token)).status).toBe(200);
  });

  it("keeps only digests of codes and tokens at rest", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { tokens, code } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const rows = JSON.stringify([
      await t.ctx.db.selectFrom("oauthToken").selectAll().execute(),
      await t.ctx.db.selectFrom("oauthCode").selectAll().execute(),
    ]);
    for (const secret of [tokens.access_token, tokens.refresh_token, code]) expect(rows).not.toContain(secret);
    expect(RP_CALLBACK).toBe(rp.client.redirectURIs[0]);
  });
});
