import type { AuthContext } from "../../context.ts";
import { constantTimeEqual, generateRandomString, sha256Base64Url } from "../../crypto/random.ts";
import {
  claimOAuthCode,
  claimRefreshToken,
  findOAuthCode,
  findOAuthTokenWithGrant,
  insertOAuthGrant,
  insertOAuthToken,
  revokeOAuthGrants,
} from "../../db/repositories/oauth-grants.ts";
import { findSessionById } from "../../db/repositories/sessions.ts";
import type { Db, UserRow } from "../../db/schema.ts";
import { inTransaction } from "../../platform/transaction.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import { findUserById, isBanned } from "../users.ts";
import { signIdToken } from "./claims.ts";
import type { OAuthClient } from "./clients.ts";
import { OAuthError } from "./oauth-error.ts";

// The token endpoint's grants (RFC 6749 §4.1.3 and §6) and what tokens are worth afterwards. Codes and
// tokens are random strings kept as SHA-256 digests. A code is single-use under concurrency (a conditional
// UPDATE has one winner); a second use revokes the family its first use began (RFC 9700 §4.5). A refresh
// token is rotated on every use; presenting a rotated one revokes its family (§4.14.2). A family lives
// while its user may sign in and its session lasts: a ban, a sign-out or a revoked session revokes it at
// once (backchannel.ts), and a refresh checks again (an expired session, one ended while the provider was off).

export interface TokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  id_token: string;
  refresh_token?: string;
  scope: string;
}

const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface Family {
  id: string;
  clientId: string;
  userId: string;
  sessionId: string;
  scope: string;
  authTime: number;
  expiresAt: number;
}

/** Whether the family's user and session still stand (a refresh or a code exchange may go on). */
async function familyStands(ctx: AuthContext, db: Db, family: Family): Promise<UserRow | null> {
  const user = await findUserById({ ...ctx, db }, family.userId);
  if (!user || isBanned(user, ctx.now())) return null;
  const session = await findSessionById(db, family.sessionId);
  if (!session || Number(session.expiresAt) <= ctx.now()) return null;
  return user;
}

/** The opaque tokens of one issue, stored (as digests) in the caller's transaction. */
interface StoredTokens {
  accessToken: string;
  expiresAt: number;
  refreshToken: string | null;
}

async function storeTokens(ctx: AuthContext, db: Db, family: Family): Promise<StoredTokens> {
  const now = ctx.now();
  const accessToken = generateRandomString(43);
  const lifetime = ctx.config.oidcProvider.accessTokenExpiresIn;
  const expiresAt = Math.min(now + lifetime * 1000, family.expiresAt);
  const access = { id: sha256Base64Url(accessToken), grantId: family.id, kind: "access" as const, expiresAt };
  await insertOAuthToken(db, { ...access, createdAt: now });
  if (!family.scope.split(" ").includes("offline_access")) return { accessToken, expiresAt, refreshToken: null };
  const refreshToken = generateRandomString(43);
  const refresh = { id: sha256Base64Url(refreshToken), grantId: family.id, kind: "refresh" as const };
  await insertOAuthToken(db, { ...refresh, expiresAt: family.expiresAt, createdAt: now });
  return { accessToken, expiresAt, refreshToken };
}

/** The answer of the token endpoint; the ID token is signed after the commit (key loading uses ctx.db). */
async function tokenAnswer(
  ctx: AuthContext,
  client: OAuthClient,
  family: Family,
  user: UserRow,
  stored: StoredTokens,
  nonce: string | null,
): Promise<TokenAnswer> {
  const answer: TokenAnswer = {
    access_token: stored.accessToken,
    token_type: "Bearer",
    expires_in: Math.max(1, Math.floor((stored.expiresAt - ctx.now()) / 1000)),
    id_token: await signIdToken(ctx, {
      clientId: client.id,
      alg: client.idTokenAlg,
      user,
      scopes: family.scope.split(" "),
      sessionId: family.sessionId,
      authTime: family.authTime,
      nonce,
    }),
    scope: family.scope,
  };
  if (stored.refreshToken !== null) answer.refresh_token = stored.refreshToken;
  return answer;
}

export type RevocationReason = "client" | "replay" | "session_ended";

/** Revoke a family and record it (a replay's actor is unknown; otherwise the user the family is for). */
export async function revokeFamily(
  ctx: AuthContext,
  grantId: string,
  reason: RevocationReason,
  origin: RequestOrigin,
): Promise<boolean> {
  const [revoked] = await revokeOAuthGrants(ctx.db, { id: grantId }, ctx.now());
  if (!revoked) return false;
  const source = reason === "replay" ? sourceOf(origin) : sourceOf(origin, "user", revoked.userId);
  await recordSecurityEvent(ctx, {
    type: "oidc_tokens_revoked",
    outcome: "success",
    clientId: revoked.clientId,
    grantId,
    reason,
    userId: revoked.userId,
    source,
  });
  return true;
}

/** A spent code or refresh token came back: recorded, and its family revoked. */
async function replayDetected(
  ctx: AuthContext,
  family: { grantId: string; clientId: string; userId: string },
  token: "code" | "refresh_token",
  origin: RequestOrigin,
): Promise<void> {
  await recordSecurityEvent(ctx, {
    type: "oidc_token_replayed",
    outcome: "failure",
    clientId: family.clientId,
    grantId: family.grantId,
    token,
    userId: family.userId,
    source: sourceOf(origin),
  });
  await revokeFamily(ctx, family.grantId, "replay", origin);
}

function checkVerifier(challenge: string | null, verifier: string | null): void {
  if (challenge === null) {
    // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is a downgrade attempt.
    if (verifier !== null) throw invalidGrant("code_verifier sent for a code issued without code_challenge");
    return;
  }
  if (verifier === null) throw invalidGrant("code_verifier is required");
  if (!PKCE_VERIFIER.test(verifier) || !constantTimeEqual(sha256Base64Url(verifier), challenge))
    throw invalidGrant("code_verifier does not match the code_challenge");
}

export interface CodeExchange {
  code: string | null;
  redirectURI: string | null;
  codeVerifier: string | null;
}

/** grant_type=authorization_code: the client's code, bound to it, its redirect URI and its PKCE challenge. */
export async function exchangeCode(
  ctx: AuthContext,
  client: OAuthClient,
  input: CodeExchange,
  origin: RequestOrigin,
): Promise<TokenAnswer> {
  if (!input.code) throw new OAuthError("invalid_request", "code is required");
  const row = await findOAuthCode(ctx.db, sha256Base64Url(input.code));
  if (!row || row.clientId !== client.id) throw invalidGrant("the code is unknown or was issued to another client");
  const replayed = async () => {
    await replayDetected(ctx, { grantId: row.grantId, clientId: client.id, userId: row.userId }, "code", origin);
    return invalidGrant("the code was used before; the tokens issued for it are revoked");
  };
  if (row.usedAt !== null) throw await replayed();
  if (Number(row.expiresAt) <= ctx.now()) throw invalidGrant("the code has expired");
  if (input.redirectURI !== row.redirectURI)
    throw invalidGrant("redirect_uri differs from the authorization request's");
  checkVerifier(row.codeChallenge, input.codeVerifier);
  const family: Family = {
    id: row.grantId,
    clientId: client.id,
    userId: row.userId,
    sessionId: row.sessionId,
    scope: row.scope,
    authTime: Number(row.authTime),
    expiresAt: ctx.now() + ctx.config.oidcProvider.refreshTokenExpiresIn * 1000,
  };
  const answer = await inTransaction(ctx.db, async (trx) => {
    if (!(await claimOAuthCode(trx, row.id, ctx.now()))) return "replayed" as const;
    const user = await familyStands(ctx, trx, family);
    if (!user) return "ended" as const;
    await insertOAuthGrant(trx, { ...family, createdAt: ctx.now(), revokedAt: null });
    const stored = await storeTokens(ctx, trx, family);
    await recordSecurityEvent(
      { ...ctx, db: trx },
      {
        type: "oidc_tokens_issued",
        outcome: "success",
        clientId: client.id,
        grantId: family.id,
        scope: family.scope,
        userId: family.userId,
        source: sourceOf(origin, "user", family.userId),
      },
    );
    return { user, stored };
  });
  if (answer === "replayed") throw await replayed();
  if (answer === "ended") throw invalidGrant("the user's session has ended");
  return tokenAnswer(ctx, client, family, answer.user, answer.stored, row.nonce);
}

/** grant_type=refresh_token: a new access token and a new refresh token; the presented one is spent. */
export async function refreshTokens(
  ctx: AuthContext,
  client: OAuthClient,
  input: { refreshToken: string | null; scope: string | null },
  origin: RequestOrigin,
): Promise<TokenAnswer> {
  if (!input.refreshToken) throw new OAuthError("invalid_request", "refresh_token is required");
  const row = await findOAuthTokenWithGrant(ctx.db, sha256Base64Url(input.refreshToken));
  if (row?.kind !== "refresh" || row.clientId !== client.id)
    throw invalidGrant("the refresh token is unknown or was issued to another client");
  if (row.revokedAt !== null) throw invalidGrant("the refresh token was revoked");
  const now = ctx.now();
  if (Number(row.tokenExpiresAt) <= now || Number(row.grantExpiresAt) <= now)
    throw invalidGrant("the refresh token has expired");
  const granted = row.scope.split(" ");
  if (input.scope !== null && !input.scope.split(" ").every((scope) => granted.includes(scope)))
    throw new OAuthError("invalid_scope", "a refresh cannot widen the granted scope");
  const family: Family = {
    id: row.grantId,
    clientId: row.clientId,
    userId: row.userId,
    sessionId: row.sessionId,
    scope: row.scope,
    authTime: Number(row.authTime),
    expiresAt: Number(row.grantExpiresAt),
  };
  const answer = await inTransaction(ctx.db, async (trx) => {
    if (!(await claimRefreshToken(trx, row.tokenId, now))) return "replayed" as const;
    const user = await familyStands(ctx, trx, family);
    if (!user) return "ended" as const;
    const stored = await storeTokens(ctx, trx, family);
    await recordSecurityEvent(
      { ...ctx, db: trx },
      {
        type: "oidc_tokens_refreshed",
        outcome: "success",
        clientId: client.id,
        grantId: family.id,
        userId: family.userId,
        source: sourceOf(origin, "user", family.userId),
      },
    );
    return { user, stored };
  });
  if (answer === "replayed") {
    await replayDetected(
      ctx,
      { grantId: family.id, clientId: family.clientId, userId: family.userId },
      "refresh_token",
      origin,
    );
    throw invalidGrant("the refresh token was used before; every token of its family is revoked");
  }
  if (answer === "ended") {
    await revokeFamily(ctx, family.id, "session_ended", origin);
    throw invalidGrant("the user's session has ended or the user may no longer sign in");
  }
  return tokenAnswer(ctx, client, family, answer.user, answer.stored, null);
}

/** A live access token's family and user (userinfo), or null. */
export async function verifyAccessToken(ctx: AuthContext, token: string) {
  const row = await findOAuthTokenWithGrant(ctx.db, sha256Base64Url(token));
  const now = ctx.now();
  if (row?.kind !== "access" || row.revokedAt !== null || Number(row.tokenExpiresAt) <= now) return null;
  const user = await findUserById(ctx, row.userId);
  if (!user || isBanned(user, now)) return null;
  return { ...row, scopes: row.scope.split(" "), user };
}
