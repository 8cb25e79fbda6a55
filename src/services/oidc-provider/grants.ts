import type { AuthContext } from "../../context.ts";
import { generateId, generateRandomString, sha256Base64Url } from "../../crypto/random.ts";
import {
  deleteSpentOAuthRows,
  expireOAuthToken,
  findOAuthConsent,
  findOAuthTokenWithGrant,
  insertOAuthCode,
  upsertOAuthConsent,
} from "../../db/repositories/oauth-grants.ts";
import { perContext } from "../../platform/per-context.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { AuthorizationRequest, BrowserSession } from "./authorization.ts";
import { redirectWith } from "./authorization.ts";
import type { OAuthClient } from "./clients.ts";
import { issuerOf } from "./metadata.ts";
import { revokeFamily } from "./tokens.ts";

// What the user's browser is given (a code, after consent when it is needed) and what a client can undo
// or ask about afterwards (RFC 7009 revocation, RFC 7662 introspection).

/** Authorization codes live 60 seconds (RFC 6749 §4.1.2 recommends at most ten minutes). */
export const CODE_LIFETIME_MS = 60_000;

/** Spent codes and ended families are kept a day, so a late replay is still recognised (and recorded). */
const KEEP_SPENT_MS = 86_400_000;
const PRUNE_EVERY_MS = 60_000;
const lastPruned = perContext(() => ({ at: 0 }));

/** Delete spent codes, expired access tokens and long-ended families: at most once a minute per process. */
async function pruneSpent(ctx: AuthContext): Promise<void> {
  const now = ctx.now();
  const last = lastPruned(ctx);
  if (now - last.at < PRUNE_EVERY_MS) return;
  last.at = now;
  await deleteSpentOAuthRows(ctx.db, now, now - KEEP_SPENT_MS, now - KEEP_SPENT_MS);
}

/** Issue a code for the signed-in user; answers where the browser goes: the client's redirect URI with it. */
export async function issueAuthorizationCode(
  ctx: AuthContext,
  request: AuthorizationRequest,
  session: BrowserSession,
): Promise<string> {
  await pruneSpent(ctx);
  const code = generateRandomString(43);
  const now = ctx.now();
  await insertOAuthCode(ctx.db, {
    id: sha256Base64Url(code),
    grantId: generateId(),
    clientId: request.client.id,
    userId: session.userId,
    sessionId: session.sessionId,
    redirectURI: request.redirectURI,
    scope: request.scopes.join(" "),
    nonce: request.nonce,
    codeChallenge: request.codeChallenge,
    authTime: session.authTime,
    expiresAt: now + CODE_LIFETIME_MS,
    usedAt: null,
    createdAt: now,
  });
  return redirectWith(request.redirectURI, { code, state: request.state, iss: issuerOf(ctx) });
}

/** The user allowed the client these scopes: remembered with what they allowed it before. */
export async function recordConsent(
  ctx: AuthContext,
  userId: string,
  request: AuthorizationRequest,
  origin: RequestOrigin,
): Promise<void> {
  const before = await findOAuthConsent(ctx.db, userId, request.client.id);
  const scopes = new Set([...(before?.scope ?? "").split(" ").filter(Boolean), ...request.scopes]);
  const scope = [...scopes].join(" ");
  await withTransaction(ctx, async (tx) => {
    await upsertOAuthConsent(tx.db, { id: generateId(), userId, clientId: request.client.id, scope }, ctx.now());
    await recordSecurityEvent(tx, {
      type: "oidc_consent_granted",
      outcome: "success",
      clientId: request.client.id,
      scope: request.scopes.join(" "),
      userId,
      source: sourceOf(origin, "user", userId),
    });
  });
}

/** Where a refusal goes: the client's redirect URI with the error, state and iss (RFC 9207). */
export function errorRedirect(
  ctx: AuthContext,
  redirectURI: string,
  state: string | null,
  error: string,
  description: string,
) {
  return redirectWith(redirectURI, { error, error_description: description, state, iss: issuerOf(ctx) });
}

/**
 * RFC 7009: revoke a token the client holds. A refresh token ends its whole family, an access token only
 * itself. Another client's token, an unknown one or one already revoked changes nothing (and the answer
 * is the same, so a client learns nothing about tokens it does not hold).
 */
export async function revokeToken(
  ctx: AuthContext,
  client: OAuthClient,
  token: string,
  origin: RequestOrigin,
): Promise<void> {
  const row = await findOAuthTokenWithGrant(ctx.db, sha256Base64Url(token));
  if (!row || row.clientId !== client.id) return;
  if (row.kind === "refresh") {
    await revokeFamily(ctx, row.grantId, "client", origin);
    return;
  }
  await withTransaction(ctx, async (tx) => {
    await expireOAuthToken(tx.db, row.tokenId, ctx.now());
    await recordSecurityEvent(tx, {
      type: "oidc_tokens_revoked",
      outcome: "success",
      clientId: client.id,
      grantId: row.grantId,
      reason: "client",
      userId: row.userId,
      source: sourceOf(origin, "user", row.userId),
    });
  });
}

/** RFC 7662: what a token is worth now, for a resource server that authenticated as a client. */
export async function introspectToken(ctx: AuthContext, token: string): Promise<Record<string, unknown>> {
  const row = await findOAuthTokenWithGrant(ctx.db, sha256Base64Url(token));
  const now = ctx.now();
  const live =
    row &&
    row.revokedAt === null &&
    Number(row.tokenExpiresAt) > now &&
    Number(row.grantExpiresAt) > now &&
    (row.kind === "access" || row.usedAt === null);
  if (!row || !live) return { active: false };
  return {
    active: true,
    scope: row.scope,
    client_id: row.clientId,
    sub: row.userId,
    iss: issuerOf(ctx),
    iat: Math.floor(Number(row.issuedAt) / 1000),
    exp: Math.floor(Number(row.tokenExpiresAt) / 1000),
    ...(row.kind === "access" ? { token_type: "Bearer" } : {}),
  };
}
