import * as z from "zod";
import { onOff } from "./schema-helpers.ts";

// authd as an OpenID Provider for other applications (docs/oidc.md) in the configuration schema
// (schema.ts). Off by default: clients are registered with `authd clients add`.

export const oidcProviderFields = () => ({
  oidcProvider: z
    .object({
      enabled: onOff
        .default(false)
        .describe("authd as an OpenID Provider: /api/auth/oauth2/* and discovery (docs/oidc.md)"),
      issuer: z
        .url({ protocol: /^https?$/ })
        .refine((value) => !value.includes("?") && !value.includes("#"), "an issuer has no query or fragment")
        .optional()
        .describe(
          "issuer identifier; discovery is at {issuer}/.well-known/openid-configuration (default: the base URL)",
        ),
      accessTokenExpiresIn: z
        .number()
        .int()
        .min(60)
        .max(86_400)
        .default(3600)
        .describe("lifetime of an access token in seconds"),
      idTokenExpiresIn: z
        .number()
        .int()
        .min(60)
        .max(86_400)
        .default(3600)
        .describe("lifetime of an ID token in seconds"),
      refreshTokenExpiresIn: z
        .number()
        .int()
        .min(300)
        .default(30 * 86_400)
        .describe(
          "longest life of a refresh-token family in seconds (offline_access); it ends sooner with its session",
        ),
    })
    .prefault({}),
});
