import { publishedKeys } from "../../services/jwt/keys.ts";
import { issueUserJWT } from "../../services/jwt/tokens.ts";
import { toUserWire } from "../../services/users.ts";
import { JWKSetSchema, TokenSchema } from "../../wire/jwks.ts";
import { defineRoute } from "../route.ts";

// Better Auth's JWT plugin: a short-lived JWT of the session user for other services, which verify it
// against the public keys at /jwks without calling authd.

const tags = ["JWT"];

export const tokenRoute = defineRoute({
  method: "GET",
  path: "/token",
  summary: "A short-lived JWT for the current session",
  tags,
  auth: "session",
  response: TokenSchema,
  handler: async ({ ctx, session }) => ({
    token: await issueUserJWT(ctx, toUserWire(ctx, session.user), session.session.impersonatedBy),
  }),
});

export const jwksRoute = defineRoute({
  method: "GET",
  path: "/jwks",
  summary: "The public keys that verify authd's JWTs",
  description: "Keys retired by a rotation stay listed until every token they signed has expired.",
  tags,
  response: JWKSetSchema,
  handler: async ({ ctx }) => ({ keys: await publishedKeys(ctx) }),
});

export const jwtRoutes = [tokenRoute, jwksRoute];
