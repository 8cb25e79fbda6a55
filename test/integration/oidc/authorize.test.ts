import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestContext,
  describeEachDialect,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../../helpers/context.ts";
import {
  answerConsent,
  authorizeParams,
  authorizePath,
  authorizeToCallback,
  browseTo,
  codeFlow,
  pathOf,
  RP_CALLBACK,
  registerClient,
  tokenRequest,
} from "../../helpers/oidc-rp.ts";
import { hiddenFields, postForm } from "../../helpers/pages.ts";

// The authorization code flow of authd's OpenID Provider through its pages: sign-in and back, consent
// (remembered, skipped for first-party clients, guarded against forgery), the code and its exchange, and
// what an attacker tries with redirect URIs, PKCE and the authorization response.

describeEachDialect("OpenID Provider: authorize, consent and the code", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
  });
  afterAll(() => t.close());

  const verifyIdToken = async (token: string, audience: string) => {
    const jwks = createLocalJWKSet((await t.agent().get("/jwks")).body);
    return jwtVerify(token, jwks, { issuer: TEST_ORIGIN, audience, currentDate: new Date(t.clock.now) });
  };

  it("sends a signed-out browser through sign-in and back, asks consent, and answers code, state and iss", async () => {
    const rp = await registerClient(t);
    const { params, verifier } = authorizeParams(rp);
    const browser = t.agent();
    const first = await browser.get(authorizePath(params));
    expect(first.status).toBe(302);
    const signIn = new URL(first.headers.get("location") ?? "", TEST_ORIGIN);
    expect(signIn.pathname).toBe("/account/sign-in");
    const back = signIn.searchParams.get("redirect") ?? "";
    expect(back.startsWith(`${TEST_ORIGIN}/api/auth/oauth2/authorize?`)).toBe(true);

    const { email, password } = await signUp(t);
    const page = await browseTo(browser, signIn.href);
    const signedIn = await postForm(browser, "/sign-in", { ...hiddenFields(page.text), identifier: email, password });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe(back);

    const again = await browser.get(pathOf(back));
    const consent = again.headers.get("location") ?? "";
    expect(consent.startsWith("/account/consent?")).toBe(true);
    const consentPage = await browseTo(browser, consent);
    expect(consentPage.text).toContain("Test RP");
    expect(consentPage.headers.get("content-security-policy")).toContain("form-action 'self' https://rp.example.com");
    const callback = new URL(await answerConsent(browser, consent, "allow"));
    expect(`${callback.origin}${callback.pathname}`).toBe(RP_CALLBACK);
    expect(callback.searchParams.get("state")).toBe(params.state);
    expect(callback.searchParams.get("iss")).toBe(TEST_ORIGIN);

    const answer = await tokenRequest(t, rp, {
      grant_type: "authorization_code",
      code: callback.searchParams.get("code") ?? "",
      redirect_uri: RP_CALLBACK,
      code_verifier: verifier,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toMatchObject({ token_type: "Bearer", scope: "openid profile email" });
    expect(answer.body.refresh_token).toBeUndefined();
    const { payload, protectedHeader } = await verifyIdToken(answer.body.id_token, rp.client.id);
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({ email, email_verified: false, name: "Test User", nonce: params.nonce });
    expect(typeof payload.auth_time).toBe("number");
    expect(typeof payload.sid).toBe("string");
  });

  it("remembers consent per user and client, asks again for new scopes or prompt=consent, and skips it for first-party clients", async () => {
    const rp = await registerClient(t);
    const { agent } = await signUp(t);
    await codeFlow(t, agent, rp);
    const silent = await agent.get(authorizePath(authorizeParams(rp).params));
    expect(new URL(silent.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
    const wider = await agent.get(authorizePath(authorizeParams(rp, { scope: "openid groups" }).params));
    expect(wider.headers.get("location")).toMatch(/^\/account\/consent\?/);
    const forced = await agent.get(authorizePath(authorizeParams(rp, { prompt: "consent" }).params));
    expect(forced.headers.get("location")).toMatch(/^\/account\/consent\?/);

    const firstParty = await registerClient(t, { skipConsent: true });
    const direct = await agent.get(authorizePath(authorizeParams(firstParty).params));
    expect(new URL(direct.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
  });

  it("signs ID tokens with the algorithm the client registered", async () => {
    const rp = await registerClient(t, { idTokenAlg: "ES256", skipConsent: true });
    const { agent } = await signUp(t);
    const { tokens } = await codeFlow(t, agent, rp);
    expect(decodeProtectedHeader(tokens.id_token).alg).toBe("ES256");
    await verifyIdToken(tokens.id_token, rp.client.id);
  });

  it("a denial goes back to the client as access_denied, with state and iss", async () => {
    const rp = await registerClient(t);
    const { agent } = await signUp(t);
    const { params } = authorizeParams(rp);
    const first = await agent.get(authorizePath(params));
    const denied = new URL(await answerConsent(agent, first.headers.get("location") ?? "", "deny"));
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe(params.state);
    expect(denied.searchParams.get("iss")).toBe(TEST_ORIGIN);
    expect(denied.searchParams.get("code")).toBeNull();
  });

  it("prompt=none answers login_required signed out and consent_required before consent", async () => {
    const rp = await registerClient(t);
    const signedOut = await t.agent().get(authorizePath(authorizeParams(rp, { prompt: "none" }).params));
    expect(new URL(signedOut.headers.get("location") ?? "").searchParams.get("error")).toBe("login_required");
    const { agent } = await signUp(t);
    const noConsent = await agent.get(authorizePath(authorizeParams(rp, { prompt: "none" }).params));
    expect(new URL(noConsent.headers.get("location") ?? "").searchParams.get("error")).toBe("consent_required");
  });

  it("prompt=login and an exceeded max_age send a signed-in browser to sign in again, and then go on", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent, email, password } = await signUp(t);
    t.clock.advance(120_000);
    for (const extra of [{ prompt: "login" }, { max_age: "60" }] as Record<string, string>[]) {
      const first = await agent.get(authorizePath(authorizeParams(rp, extra).params));
      const signIn = new URL(first.headers.get("location") ?? "", TEST_ORIGIN);
      expect(signIn.pathname).toBe("/account/sign-in");
      expect(signIn.searchParams.get("fresh")).toBe("1");
      const page = await browseTo(agent, signIn.href);
      expect(page.text).toContain('name="password"');
      // The way back without signing in again leads to sign-in again.
      const skipped = await agent.get(pathOf(signIn.searchParams.get("redirect") ?? ""));
      expect(new URL(skipped.headers.get("location") ?? "", TEST_ORIGIN).pathname).toBe("/account/sign-in");
      t.clock.advance(1000);
      const signedIn = await postForm(agent, "/sign-in", { ...hiddenFields(page.text), identifier: email, password });
      const done = await agent.get(pathOf(signedIn.headers.get("location") ?? ""));
      expect(new URL(done.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
      t.clock.advance(120_000);
    }
  });

  it("passes login_hint to the sign-in page's identifier field", async () => {
    const rp = await registerClient(t);
    const first = await t.agent().get(authorizePath(authorizeParams(rp, { login_hint: "hint@example.com" }).params));
    expect(new URL(first.headers.get("location") ?? "", TEST_ORIGIN).searchParams.get("identifier")).toBe(
      "hint@example.com",
    );
  });

  it("attacker: a redirect URI that is not exactly a registered one never receives anything", async () => {
    const rp = await registerClient(t, { redirectURIs: ["https://rp.example.com/callback", "http://127.0.0.1/cb"] });
    const { agent } = await signUp(t);
    const variations = [
      "https://rp.example.com/callback/",
      "https://RP.example.com/callback",
      "https://rp.example.com/Callback",
      "https://rp.example.com/callback/extra",
      "https://rp.example.com/callback?next=evil",
      "https://user@rp.example.com/callback",
      "https://rp.example.com:8443/callback",
      "http://rp.example.com/callback",
      "https://rp.example.com.evil.example/callback",
      "http://127.0.0.1:9999/cb",
    ];
    for (const redirect_uri of variations) {
      const res = await agent.get(authorizePath(authorizeParams(rp, { redirect_uri }).params));
      expect(res.status, redirect_uri).toBe(302);
      expect(res.headers.get("location"), redirect_uri).toBe("/account/error?error=invalid_oauth_request");
    }
    const unknownClient = await agent.get(authorizePath(authorizeParams(rp, { client_id: "nobody" }).params));
    expect(unknownClient.headers.get("location")).toBe("/account/error?error=invalid_oauth_request");
  });

  it("a public native client may be answered on any loopback port, a confidential one may not", async () => {
    const native = await registerClient(t, {
      isPublic: true,
      redirectURIs: ["http://127.0.0.1/cb"],
      skipConsent: true,
    });
    const { agent } = await signUp(t);
    const res = await agent.get(
      authorizePath(authorizeParams(native, { redirect_uri: "http://127.0.0.1:51234/cb" }).params),
    );
    expect(new URL(res.headers.get("location") ?? "").port).toBe("51234");
    const other = await agent.get(
      authorizePath(authorizeParams(native, { redirect_uri: "http://127.0.0.1:51234/other" }).params),
    );
    expect(other.headers.get("location")).toBe("/account/error?error=invalid_oauth_request");
  });

  it("attacker: PKCE is required of public clients, plain is refused, and a wrong or missing verifier fails", async () => {
    const spa = await registerClient(t, { isPublic: true, skipConsent: true });
    const { agent } = await signUp(t);
    const error = async (extra: Record<string, string>) => {
      const { params } = authorizeParams(spa, extra);
      const res = await agent.get(authorizePath(params));
      return new URL(res.headers.get("location") ?? "").searchParams.get("error");
    };
    expect(await error({ code_challenge: "" })).toBe("invalid_request");
    expect(await error({ code_challenge_method: "plain" })).toBe("invalid_request");
    expect(await error({ code_challenge: "short" })).toBe("invalid_request");

    const { params, verifier } = authorizeParams(spa);
    const callback = await authorizeToCallback(agent, params);
    const code = callback.searchParams.get("code") ?? "";
    const exchange = (fields: Record<string, string>) =>
      tokenRequest(t, spa, { grant_type: "authorization_code", code, redirect_uri: params.redirect_uri, ...fields });
    expect((await exchange({})).body.error).toBe("invalid_grant");
    expect(
      (await exchange({ code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith("A") ? "B" : "A"}` })).body.error,
    ).toBe("invalid_grant");
    const good = await exchange({ code_verifier: verifier });
    expect(good.status, good.text).toBe(200);
  });

  it("attacker: a verifier for a code issued without a challenge is refused (PKCE downgrade)", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { params } = authorizeParams(rp, { code_challenge: "", code_challenge_method: "" });
    delete params.code_challenge;
    delete params.code_challenge_method;
    const callback = await authorizeToCallback(agent, params);
    const fields = {
      grant_type: "authorization_code",
      code: callback.searchParams.get("code") ?? "",
      redirect_uri: RP_CALLBACK,
    };
    const downgraded = await tokenRequest(t, rp, { ...fields, code_verifier: "a".repeat(43) });
    expect(downgraded.body.error).toBe("invalid_grant");
    expect((await tokenRequest(t, rp, fields)).status).toBe(200);
  });

  it("attacker: a replayed code is refused and revokes the tokens its first use issued", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { tokens, code, verifier } = await codeFlow(t, agent, rp, { scope: "openid offline_access" });
    const bearer = { headers: { authorization: `Bearer ${tokens.access_token}` } };
    expect((await t.agent().get("/oauth2/userinfo", bearer)).status).toBe(200);
    const replay = await tokenRequest(t, rp, {
      grant_type: "authorization_code",
      code,
      redirect_uri: RP_CALLBACK,
      code_verifier: verifier,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await t.agent().get("/oauth2/userinfo", bearer)).status).toBe(401);
    const refresh = await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("attacker: concurrent exchanges of one code issue tokens once", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { params, verifier } = authorizeParams(rp);
    const callback = await authorizeToCallback(agent, params);
    const fields = {
      grant_type: "authorization_code",
      code: callback.searchParams.get("code") ?? "",
      redirect_uri: RP_CALLBACK,
      code_verifier: verifier,
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => tokenRequest(t, rp, fields)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  });

  it("attacker: another client's code, an expired code and a code with another redirect URI are refused", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const other = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const { params, verifier } = authorizeParams(rp);
    const code = (await authorizeToCallback(agent, params)).searchParams.get("code") ?? "";
    const fields = { grant_type: "authorization_code", code, redirect_uri: RP_CALLBACK, code_verifier: verifier };
    expect((await tokenRequest(t, other, fields)).body.error).toBe("invalid_grant");
    expect((await tokenRequest(t, rp, { ...fields, redirect_uri: "https://rp.example.com/other" })).body.error).toBe(
      "invalid_grant",
    );
    t.clock.advance(61_000);
    expect((await tokenRequest(t, rp, fields)).body.error).toBe("invalid_grant");
  });

  it("attacker: a wrong client secret, two ways of authenticating at once, or a public client posing as confidential are invalid_client", async () => {
    const rp = await registerClient(t);
    const wrong = await tokenRequest(
      t,
      { ...rp, secret: "x".repeat(48) },
      { grant_type: "authorization_code", code: "x" },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    expect(wrong.headers.get("www-authenticate")).toContain("Basic");
    const both = await tokenRequest(t, rp, {
      grant_type: "authorization_code",
      code: "x",
      client_secret: rp.secret ?? "",
    });
    expect(both.body.error).toBe("invalid_request");
    const posted = await tokenRequest(t, rp, { grant_type: "authorization_code", code: "x" }, { post: true });
    expect(posted.body.error).toBe("invalid_grant");
    const spa = await registerClient(t, { isPublic: true });
    const withSecret = await tokenRequest(
      t,
      { ...spa, secret: "anything" },
      { grant_type: "authorization_code", code: "x" },
      { post: true },
    );
    expect(withSecret.body.error).toBe("invalid_client");
    const password = await tokenRequest(t, rp, { grant_type: "password", username: "a", password: "b" });
    expect(password.body.error).toBe("unsupported_grant_type");
  });

  it("attacker: a consent post without the form token, or from another site, issues nothing", async () => {
    const rp = await registerClient(t);
    const { agent } = await signUp(t);
    const first = await agent.get(authorizePath(authorizeParams(rp).params));
    const page = await browseTo(agent, first.headers.get("location") ?? "");
    const fields = { ...hiddenFields(page.text), decision: "allow" };
    const noToken = await postForm(agent, "/consent", { ...fields, csrf: "" });
    expect(noToken.status).toBe(403);
    const foreign = await postForm(agent, "/consent", fields, { origin: "https://rp.example.com.evil.example" });
    expect(foreign.status).toBe(403);
    // A request other than the one shown (another redirect URI) is checked again on the post.
    const swapped = await postForm(agent, "/consent", { ...fields, redirect_uri: "https://evil.example/cb" });
    expect(swapped.headers.get("location")).toBe("/account/error?error=invalid_oauth_request");
    const consents = await t.ctx.db
      .selectFrom("oauthConsent")
      .selectAll()
      .where("clientId", "=", rp.client.id)
      .execute();
    expect(consents).toEqual([]);
  });

  it("refuses response types other than code, requests without openid, and request objects", async () => {
    const rp = await registerClient(t, { skipConsent: true });
    const { agent } = await signUp(t);
    const error = async (extra: Record<string, string>) => {
      const res = await agent.get(authorizePath(authorizeParams(rp, extra).params));
      return new URL(res.headers.get("location") ?? "").searchParams.get("error");
    };
    expect(await error({ response_type: "token" })).toBe("unsupported_response_type");
    expect(await error({ response_type: "id_token" })).toBe("unsupported_response_type");
    expect(await error({ scope: "profile" })).toBe("invalid_scope");
    expect(await error({ request: "eyJ" })).toBe("request_not_supported");
  });
});
