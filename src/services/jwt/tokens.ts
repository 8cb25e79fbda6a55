import type { AuthContext } from "../../context.ts";
import { signJWT } from "../../crypto/jwt.ts";
import type { UserWire } from "../users.ts";
import { currentSigningKey } from "./keys.ts";

// The JWT a session's holder hands to other services (GET /token, set-auth-jwt on get-session). Claims:
// the session user as get-session shows it (or the configured fields of it), sub = the user id, iss and
// aud (the base URL unless configured), iat, and exp = iat + the configured lifetime (15 minutes).

function userClaims(ctx: AuthContext, user: UserWire): Record<string, unknown> {
  const fields = ctx.config.jwt.userFields;
  const entries = Object.entries(user);
  if (!fields) return Object.fromEntries(entries);
  return Object.fromEntries(entries.filter(([name]) => fields.includes(name)));
}

/** A signed JWT for the user of a live session. */
export async function issueUserJWT(ctx: AuthContext, user: UserWire): Promise<string> {
  const key = await currentSigningKey(ctx);
  const audience = ctx.config.jwt.audience ?? [ctx.baseURL];
  return signJWT(key.privateKey, userClaims(ctx, user), {
    alg: key.alg,
    kid: key.id,
    issuer: ctx.config.jwt.issuer ?? ctx.baseURL,
    audience: audience.length === 1 ? audience[0] : audience,
    subject: user.id,
    issuedAt: Math.floor(ctx.now() / 1000),
    expiresInSeconds: ctx.config.jwt.expiresIn,
  });
}
