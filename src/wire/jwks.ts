import * as z from "zod";

// The JWT plugin's wire shapes: a public key of /jwks and the answer of /token.

export const PublicJWKSchema = z
  .object({ kty: z.string(), alg: z.string(), kid: z.string() })
  .catchall(z.string())
  .describe("a public key (OKP: crv, x; EC: crv, x, y; RSA: n, e); never a private parameter");

export type PublicJWK = z.output<typeof PublicJWKSchema>;

export const JWKSetSchema = z.object({ keys: z.array(PublicJWKSchema) });

export const TokenSchema = z.object({ token: z.string().describe("a JWT signed with the current key of /jwks") });
