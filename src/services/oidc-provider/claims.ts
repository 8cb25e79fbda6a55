import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url } from "../../crypto/hmac.ts";
import { signJWT } from "../../crypto/jwt.ts";
import { listOrganizationRolesOfUser } from "../../db/repositories/oauth-grants.ts";
import type { UserRow } from "../../db/schema.ts";
import { currentSigningKey } from "../jwt/keys.ts";
import type { IdTokenAlgorithm } from "./clients.ts";
import { issuerOf } from "./metadata.ts";

// What the OpenID Provider says about a user, per scope (OpenID Connect Core §5.4): profile (name,
// preferred_username, picture, updated_at), email (email, email_verified) and authd's groups (the user's
// admin roles as role:<role>, each organization as org:<slug> and org:<slug>:<member role>; prefixed so an
// organization named "admin" can never pass for the admin role).

export async function userClaims(ctx: AuthContext, user: UserRow, scopes: readonly string[]) {
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.includes("profile")) {
    claims.name = user.name;
    if (user.username) claims.preferred_username = user.username;
    if (user.image) claims.picture = user.image;
    claims.updated_at = Math.floor(Number(user.updatedAt) / 1000);
  }
  if (scopes.includes("email")) {
    claims.email = user.email;
    claims.email_verified = Boolean(user.emailVerified);
  }
  if (scopes.includes("groups")) {
    const roles = (user.role ?? "")
      .split(",")
      .map((role) => role.trim())
      .filter(Boolean);
    const memberships = await listOrganizationRolesOfUser(ctx.db, user.id);
    claims.groups = [
      ...roles.map((role) => `role:${role}`),
      ...memberships.flatMap((m) => [`org:${m.slug}`, `org:${m.slug}:${m.role}`]),
    ];
  }
  return claims;
}

/** The session's id as relying parties see it (`sid`): stable per session, telling nothing of the session row. */
export function sessionIdClaim(ctx: AuthContext, sessionId: string): string {
  return hmacSha256Base64Url(ctx.secret, `oidc-sid:${sessionId}`).slice(0, 32);
}

export interface IdTokenInput {
  clientId: string;
  alg: IdTokenAlgorithm;
  user: UserRow;
  scopes: readonly string[];
  sessionId: string;
  authTime: number;
  nonce: string | null;
}

/** An ID token (OpenID Connect Core §2) signed with the client's algorithm, RS256 unless it asked otherwise. */
export async function signIdToken(ctx: AuthContext, input: IdTokenInput): Promise<string> {
  const key = await currentSigningKey(ctx, input.alg);
  const { sub: _sub, ...claims } = await userClaims(ctx, input.user, input.scopes);
  const payload: Record<string, unknown> = {
    ...claims,
    auth_time: Math.floor(input.authTime / 1000),
    sid: sessionIdClaim(ctx, input.sessionId),
  };
  if (input.nonce !== null) payload.nonce = input.nonce;
  return signJWT(key.privateKey, payload, {
    alg: key.alg,
    kid: key.id,
    issuer: issuerOf(ctx),
    audience: input.clientId,
    subject: input.user.id,
    issuedAt: Math.floor(ctx.now() / 1000),
    expiresInSeconds: ctx.config.oidcProvider.idTokenExpiresIn,
  });
}

/** A back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) for one client. */
export async function signLogoutToken(
  ctx: AuthContext,
  input: { clientId: string; alg: IdTokenAlgorithm; userId: string; sessionId: string; jti: string },
): Promise<string> {
  const key = await currentSigningKey(ctx, input.alg);
  const payload = {
    sid: sessionIdClaim(ctx, input.sessionId),
    jti: input.jti,
    events: { "http://schemas.openid.net/event/backchannel-logout": {} },
  };
  return signJWT(key.privateKey, payload, {
    alg: key.alg,
    kid: key.id,
    typ: "logout+jwt",
    issuer: issuerOf(ctx),
    audience: input.clientId,
    subject: input.userId,
    issuedAt: Math.floor(ctx.now() / 1000),
    expiresInSeconds: 120,
  });
}
