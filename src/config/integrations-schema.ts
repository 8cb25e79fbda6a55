import * as z from "zod";
import { HEADER_NAME, onOff, seconds } from "./schema-helpers.ts";

// Passkeys, tokens for other services (JWT, bearer, forward-auth), social providers and extra user fields
// in the configuration schema (schema.ts).

/** One social provider's settings (social.<id>). */
const socialProviderSchema = () =>
  z
    .object({
      clientId: z.string().min(1).describe("OAuth client id"),
      clientSecret: z.string().default("").describe("OAuth client secret"),
      issuer: z.url().optional().describe("OpenID Connect issuer; its discovery document supplies the endpoints"),
      trusted: onOff.default(false).describe("trusted for account linking"),
      scopes: z.array(z.string()).optional().describe("scopes requested (replaces the provider's defaults)"),
      authorizationEndpoint: z.url().optional(),
      tokenEndpoint: z.url().optional(),
      userInfoEndpoint: z.url().optional(),
      jwksURI: z.url().optional(),
      emailsEndpoint: z.url().optional().describe("GitHub-style endpoint listing the user's emails"),
      redirectURI: z.url().optional().describe("override of {base}/api/auth/callback/{id}"),
      disableSignUp: onOff.default(false),
      disableImplicitSignUp: onOff.default(false).describe("new users only when the client asks with requestSignUp"),
      prompt: z.string().optional(),
      responseMode: z.enum(["query", "form_post"]).optional(),
      timeoutMs: z.number().int().min(100).default(10_000).describe("timeout of each outbound call"),
    })
    .strict();

export type SocialProviderConfig = z.infer<ReturnType<typeof socialProviderSchema>>;

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of fields built on demand (schema.ts), not logic
export const integrationFields = () => ({
  passkey: z
    .object({
      enabled: onOff.default(true).describe("passkey routes (/passkey/*)"),
      rpID: z
        .string()
        .min(1)
        .optional()
        .describe("WebAuthn relying-party id, a domain (default: the base URL's host name)"),
      rpName: z.string().min(1).default("authd").describe("relying-party name authenticators show"),
      origin: z
        .array(z.string())
        .optional()
        .describe("origins whose WebAuthn ceremonies are accepted (default: the base URL's origin)"),
      userVerification: z
        .enum(["required", "preferred", "discouraged"])
        .default("preferred")
        .describe("asked of authenticators; required: a passkey without user verification is refused"),
      residentKey: z
        .enum(["required", "preferred", "discouraged"])
        .default("preferred")
        .describe("discoverable credentials at registration"),
      authenticatorAttachment: z
        .enum(["platform", "cross-platform"])
        .optional()
        .describe("authenticators offered at registration (unset: any; a client may ask per registration)"),
      challengeExpiresIn: seconds(300, "lifetime of a registration or sign-in challenge"),
    })
    .prefault({}),
  jwt: z
    .object({
      enabled: onOff.default(true).describe("GET /token, GET /jwks and the set-auth-jwt header on get-session"),
      algorithm: z
        .enum(["EdDSA", "ES256", "RS256"])
        .default("EdDSA")
        .describe("signing algorithm of new keys (EdDSA: Ed25519; ES256: P-256; RS256: RSA 2048)"),
      issuer: z.string().min(1).optional().describe("iss claim (default: the base URL)"),
      audience: z.array(z.string().min(1)).optional().describe("aud claim (default: the base URL)"),
      expiresIn: z.number().int().min(10).default(900).describe("lifetime of a token in seconds"),
      userFields: z
        .array(z.string().min(1))
        .optional()
        .describe("user fields copied into the token (default: every field get-session shows)"),
    })
    .prefault({}),
  bearer: z
    .object({
      enabled: onOff
        .default(true)
        .describe(
          "the session token in an Authorization: Bearer header in place of the cookie, and the set-auth-token header",
        ),
    })
    .prefault({}),
  forwardAuth: z
    .object({
      enabled: onOff.default(true).describe("GET /forward-auth for reverse proxies"),
      signInURL: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe(
          "where browsers without a session are sent (302); unset: authd's own sign-in page while the pages are on, else 401",
        ),
      returnParameter: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+$/)
        .default("callbackURL")
        .describe("query parameter of the sign-in URL that carries the page to return to"),
      headers: z
        .object({
          userId: z.string().regex(HEADER_NAME).default("X-Auth-User-Id").describe("header carrying the user's id"),
          email: z
            .string()
            .regex(HEADER_NAME)
            .default("X-Auth-User-Email")
            .describe("header carrying the email address"),
          name: z.string().regex(HEADER_NAME).default("X-Auth-User-Name").describe("header carrying the name"),
          role: z
            .string()
            .regex(HEADER_NAME)
            .default("X-Auth-User-Role")
            .describe("header carrying the admin role(s), comma-separated"),
          sessionId: z
            .string()
            .regex(HEADER_NAME)
            .default("X-Auth-Session-Id")
            .describe("header carrying the session's id (empty for an API key)"),
        })
        .prefault({})
        .describe("names of the headers a 200 answer carries"),
    })
    .prefault({}),
  social: z
    .record(
      z.string().regex(/^[a-z0-9_-]+$/, "provider ids are lower-case letters, digits, _ and -"),
      socialProviderSchema(),
    )
    .default({}),
  userAdditionalFields: z
    .record(
      z.string(),
      z.object({
        type: z.enum(["string", "number", "boolean"]),
        required: onOff.default(false),
        input: onOff.default(true),
        defaultValue: z.union([z.string(), z.number(), z.boolean()]).optional(),
      }),
    )
    .default({})
    .describe("extra user fields accepted on sign-up and update-user (stored in user.additionalFields)"),
});
