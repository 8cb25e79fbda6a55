import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAuthorizationURL, createState } from "../../src/services/oauth/authorization.ts";
import { readAppleProfile, readMicrosoftProfile } from "../../src/services/oauth/profiles.ts";
import { resolveProvider } from "../../src/services/oauth/providers.ts";
import { isTrustedProvider } from "../../src/services/oauth/social-users.ts";
import type { ResolvedProvider } from "../../src/services/oauth/types.ts";
import { createTestContext, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";

// The built-in provider table as configured from the environment: real endpoints, scopes and the
// per-provider parameters of the authorization URL, and the profile rules that are not plain OIDC.

const unsignedIdToken = (claims: Record<string, unknown>) =>
  `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

describe("built-in social providers configured by environment [sqlite]", () => {
  let t: TestContext;
  beforeAll(async () => {
    const env: Record<string, string> = {};
    for (const id of ["GOOGLE", "GITHUB", "MICROSOFT", "APPLE", "DISCORD", "GITLAB"]) {
      env[`AUTH_SOCIAL_${id}_CLIENT_ID`] = `${id.toLowerCase()}-client`;
      env[`AUTH_SOCIAL_${id}_CLIENT_SECRET`] = `${id.toLowerCase()}-secret`;
    }
    env.AUTH_SOCIAL_GITLAB_ISSUER = "https://gitlab.example.com/";
    env.AUTH_SOCIAL_GITHUB_TRUSTED = "on";
    // A generic OpenID Connect provider whose issuer does not answer (nothing listens on port 9).
    env.AUTH_SOCIAL_DOWN_CLIENT_ID = "down-client";
    env.AUTH_SOCIAL_DOWN_ISSUER = "http://127.0.0.1:9";
    t = await createTestContext({ env });
  });
  afterAll(() => t.close());

  async function authorizationURL(id: string): Promise<{ url: URL; codeVerifier: string; provider: ResolvedProvider }> {
    const provider = (await resolveProvider(t.ctx, id))!;
    const { state, codeVerifier } = await createState(t.ctx, { providerId: id, callbackURL: "/" });
    return {
      url: new URL(buildAuthorizationURL(t.ctx, provider, { state, codeVerifier, scopes: ["extra"] })),
      codeVerifier,
      provider,
    };
  }

  it("builds each provider's authorization URL with its endpoint, scopes and PKCE", async () => {
    const expected: Record<string, { endpoint: string; scope: string; extra?: Record<string, string> }> = {
      google: {
        endpoint: "https://accounts.google.com/o/oauth2/v2/auth",
        scope: "openid email profile extra",
        extra: { include_granted_scopes: "true" },
      },
      github: { endpoint: "https://github.com/login/oauth/authorize", scope: "read:user user:email extra" },
      microsoft: {
        endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
        scope: "openid profile email User.Read offline_access extra",
      },
      apple: {
        endpoint: "https://appleid.apple.com/auth/authorize",
        scope: "name email extra",
        extra: { response_mode: "form_post" },
      },
      discord: {
        endpoint: "https://discord.com/oauth2/authorize",
        scope: "identify email extra",
        extra: { prompt: "none" },
      },
      gitlab: { endpoint: "https://gitlab.example.com/oauth/authorize", scope: "read_user extra" },
    };
    for (const [id, want] of Object.entries(expected)) {
      const { url, codeVerifier } = await authorizationURL(id);
      expect(`${url.origin}${url.pathname}`, id).toBe(want.endpoint);
      expect(url.searchParams.get("scope"), id).toBe(want.scope);
      expect(url.searchParams.get("client_id")).toBe(`${id}-client`);
      expect(url.searchParams.get("redirect_uri")).toBe(`${TEST_ORIGIN}/api/auth/callback/${id}`);
      expect(url.searchParams.get("response_type")).toBe("code");
      expect(url.searchParams.get("code_challenge")).toBe(
        createHash("sha256").update(codeVerifier).digest("base64url"),
      );
      expect(codeVerifier).toHaveLength(128);
      for (const [key, value] of Object.entries(want.extra ?? {}))
        expect(url.searchParams.get(key), `${id} ${key}`).toBe(value);
    }
  });

  it("derives self-hosted GitLab endpoints from its issuer and knows which providers are trusted", async () => {
    const gitlab = (await resolveProvider(t.ctx, "gitlab"))!;
    expect(gitlab.endpoints).toMatchObject({
      tokenEndpoint: "https://gitlab.example.com/oauth/token",
      userInfoEndpoint: "https://gitlab.example.com/api/v4/user",
    });
    expect(isTrustedProvider(t.ctx, "github")).toBe(true);
    expect(isTrustedProvider(t.ctx, "google")).toBe(false);
    expect(await resolveProvider(t.ctx, "myspace")).toBeNull();
  });

  it("answers 503 when a generic provider's discovery document cannot be fetched", async () => {
    const res = await t.agent().post("/sign-in/social", { provider: "down", callbackURL: "/" });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("THE_PROVIDER_COULD_NOT_BE_REACHED");
  });

  it("stores the state for 10 minutes as a verification record holding the provider, the verifier and targets", async () => {
    const { state, codeVerifier } = await createState(t.ctx, {
      providerId: "google",
      callbackURL: "/home",
      errorCallbackURL: "/oops",
    });
    const row = await t.ctx.db
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "=", state)
      .executeTakeFirstOrThrow();
    expect(Number(row.expiresAt) - t.ctx.now()).toBe(600_000);
    expect(JSON.parse(row.value)).toMatchObject({
      providerId: "google",
      codeVerifier,
      callbackURL: "/home",
      errorCallbackURL: "/oops",
      expiresAt: Number(row.expiresAt),
    });
  });

  it("reads Apple's one-time name form field and string booleans", async () => {
    const apple = (await resolveProvider(t.ctx, "apple"))!;
    const profile = await readAppleProfile({
      tokens: {
        idToken: unsignedIdToken({ sub: "001.apple", email: "Ann@PrivateRelay.AppleID.com", email_verified: "true" }),
        scopes: [],
      },
      endpoints: apple.endpoints,
      config: apple.config,
      formUser: JSON.stringify({ name: { firstName: "Ann", lastName: "Apple" } }),
    });
    expect(profile).toMatchObject({
      id: "001.apple",
      email: "ann@privaterelay.appleid.com",
      emailVerified: true,
      name: "Ann Apple",
    });
  });

  it("does not treat a Microsoft email as verified without the tenant's word for it", async () => {
    const microsoft = (await resolveProvider(t.ctx, "microsoft"))!;
    const input = (claims: Record<string, unknown>) => ({
      tokens: { idToken: unsignedIdToken(claims), scopes: [] },
      endpoints: microsoft.endpoints,
      config: microsoft.config,
    });
    expect(
      (await readMicrosoftProfile(input({ sub: "m1", email: "ceo@victim.example", name: "X" })))?.emailVerified,
    ).toBe(false);
    expect(
      (await readMicrosoftProfile(input({ sub: "m1", email: "ceo@victim.example", xms_edov: true })))?.emailVerified,
    ).toBe(true);
    const fallback = await readMicrosoftProfile(
      input({ sub: "m1", preferred_username: "ceo@victim.example", xms_edov: true }),
    );
    expect(fallback).toMatchObject({ email: "ceo@victim.example", emailVerified: false });
  });
});
