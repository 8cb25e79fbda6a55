import type { AuthContext } from "../../context.ts";

// Where authd's OpenID Provider is, as its discovery document says (OpenID Connect Discovery 1.0, RFC 8414
// fields for revocation and introspection, RFC 9207's iss parameter). Every URL is derived from the base
// URL; the issuer is AUTH_OIDC_ISSUER or the base URL.

/** The issuer identifier, without a trailing slash (an RP compares it as a string). */
export function issuerOf(ctx: AuthContext): string {
  const issuer = ctx.config.oidcProvider.issuer ?? ctx.baseURL;
  return issuer.endsWith("/") ? issuer.slice(0, -1) : issuer;
}

/** The path on this daemon of the discovery document under the issuer. */
export function issuerDiscoveryPath(ctx: AuthContext): string {
  const path = new URL(issuerOf(ctx)).pathname.replace(/\/$/, "");
  return `${path}/.well-known/openid-configuration`;
}

export const OIDC_PATH = "/oauth2";

export const SUPPORTED_SCOPES = ["openid", "profile", "email", "offline_access", "groups"] as const;
export type Scope = (typeof SUPPORTED_SCOPES)[number];

export const SIGNING_ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;

export function endpoints(ctx: AuthContext) {
  const api = `${ctx.apiURL}${OIDC_PATH}`;
  return {
    authorization_endpoint: `${api}/authorize`,
    token_endpoint: `${api}/token`,
    userinfo_endpoint: `${api}/userinfo`,
    revocation_endpoint: `${api}/revoke`,
    introspection_endpoint: `${api}/introspect`,
    end_session_endpoint: `${api}/end-session`,
    jwks_uri: `${ctx.apiURL}/jwks`,
  };
}

export function discoveryDocument(ctx: AuthContext): Record<string, unknown> {
  const clientAuth = ["client_secret_basic", "client_secret_post"];
  return {
    issuer: issuerOf(ctx),
    ...endpoints(ctx),
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...SIGNING_ALGORITHMS],
    token_endpoint_auth_methods_supported: [...clientAuth, "none"],
    revocation_endpoint_auth_methods_supported: [...clientAuth, "none"],
    introspection_endpoint_auth_methods_supported: clientAuth,
    code_challenge_methods_supported: ["S256"],
    prompt_values_supported: ["none", "login", "consent"],
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "sid",
      "name",
      "preferred_username",
      "picture",
      "updated_at",
      "email",
      "email_verified",
      "groups",
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}
