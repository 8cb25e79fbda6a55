import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, TEST_ORIGIN, type TestContext } from "../../helpers/context.ts";

// Discovery of authd's OpenID Provider: off by default; on, at {issuer}/.well-known/openid-configuration and
// under the API, every URL derived from the base URL, and an RS256 key in the JWKS before the first ID token.

describeEachDialect("OpenID Provider discovery", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
  });
  afterAll(() => t.close());

  it("answers the same document at the issuer and under /api/auth, naming only authd's own endpoints", async () => {
    const atIssuer = await t.app.request(`${TEST_ORIGIN}/.well-known/openid-configuration`);
    expect(atIssuer.status).toBe(200);
    const document = await atIssuer.json();
    const underAPI = await t.agent().get("/.well-known/openid-configuration");
    expect(underAPI.body).toEqual(document);
    expect(document).toMatchObject({
      issuer: TEST_ORIGIN,
      authorization_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/authorize`,
      token_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/token`,
      userinfo_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/userinfo`,
      revocation_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/revoke`,
      introspection_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/introspect`,
      end_session_endpoint: `${TEST_ORIGIN}/api/auth/oauth2/end-session`,
      jwks_uri: `${TEST_ORIGIN}/api/auth/jwks`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(document.id_token_signing_alg_values_supported).toContain("RS256");
    expect(document.grant_types_supported).not.toContain("password");
    expect(document.grant_types_supported).not.toContain("implicit");
  });

  it("publishes an RS256 key beside the session JWTs' key, sealed at rest like it", async () => {
    const { keys } = (await t.agent().get("/jwks")).body as { keys: { alg: string; kty: string; d?: string }[] };
    expect(keys.map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"]);
    const rsa = keys.find((key) => key.alg === "RS256");
    expect(rsa).toMatchObject({ kty: "RSA", e: "AQAB" });
    expect(rsa).not.toHaveProperty("d");
    const rows = await t.ctx.db.selectFrom("jwks").select(["alg", "privateKey"]).execute();
    for (const row of rows) expect(row.privateKey).not.toContain('"d"');
  });

  it("keys rotate makes a new key of each algorithm and keeps the old ones published", async () => {
    const { rotateSigningKey } = await import("../../../src/services/jwt/keys.ts");
    const before = (await t.agent().get("/jwks")).body.keys.map((key: { kid: string }) => key.kid);
    const rotated = await rotateSigningKey(t.ctx);
    expect(rotated.retired.sort()).toEqual([...before].sort());
    const after = (await t.agent().get("/jwks")).body.keys as { kid: string; alg: string }[];
    expect(after).toHaveLength(4);
    expect(
      after
        .slice(0, 2)
        .map((key) => key.alg)
        .sort(),
    ).toEqual(["EdDSA", "RS256"]);
  });
});

describe("OpenID Provider off (the default)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("has no discovery, no endpoints and no RSA key", async () => {
    expect((await t.app.request(`${TEST_ORIGIN}/.well-known/openid-configuration`)).status).toBe(404);
    expect((await t.agent().get("/.well-known/openid-configuration")).status).toBe(404);
    expect((await t.agent().get("/oauth2/authorize")).status).toBe(404);
    const { keys } = (await t.agent().get("/jwks")).body as { keys: { alg: string }[] };
    expect(keys.map((key) => key.alg)).toEqual(["EdDSA"]);
  });
});

describe("OpenID Provider with an issuer of its own", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      env: { AUTH_OIDC_PROVIDER: "on", AUTH_OIDC_ISSUER: `${TEST_ORIGIN}/sso`, AUTH_JWT: "off" },
    });
  });
  afterAll(() => t.close());

  it("serves discovery under the issuer's path and the JWKS even with the session JWTs off", async () => {
    const res = await t.app.request(`${TEST_ORIGIN}/sso/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect((await res.json()).issuer).toBe(`${TEST_ORIGIN}/sso`);
    expect((await t.agent().get("/jwks")).status).toBe(200);
    expect((await t.agent().get("/token")).status).toBe(404);
  });
});
