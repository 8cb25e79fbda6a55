import * as z from "zod";

// A client registered with authd's OpenID Provider, in the names of OAuth 2.0 Dynamic Client Registration
// (RFC 7591) metadata. Never its secret: that is shown once, when made or rotated.

export const OAuthClientSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  id_token_signed_response_alg: z.enum(["RS256", "ES256", "EdDSA"]),
  token_endpoint_auth_method: z
    .enum(["client_secret_basic", "none"])
    .describe("none: a public client (PKCE only); client_secret_post is accepted from confidential clients too"),
  skip_consent: z.boolean().describe("a first-party client: users are not asked to consent"),
  backchannel_logout_uri: z.string().nullable(),
  created_at: z.string(),
});

export type OAuthClientWire = z.output<typeof OAuthClientSchema>;

/** A client as registered or given a new secret: the secret, once (none for a public client). */
export const OAuthClientWithSecretSchema = OAuthClientSchema.extend({
  client_secret: z.string().optional().describe("shown once; authd keeps only its SHA-256 digest"),
});

export type OAuthClientWithSecretWire = z.output<typeof OAuthClientWithSecretSchema>;
