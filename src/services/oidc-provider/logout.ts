import type { AuthContext } from "../../context.ts";
import { verifyOwnSignature } from "../../crypto/jwt.ts";
import { generateId } from "../../crypto/random.ts";
import type { OAuthGrantRow } from "../../db/oauth-schema.ts";
import { listOAuthClientsById } from "../../db/repositories/oauth-clients.ts";
import { revokeOAuthGrants } from "../../db/repositories/oauth-grants.ts";
import { publishedKeys } from "../jwt/keys.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import { signLogoutToken } from "./claims.ts";
import { findClient, type OAuthClient, toOAuthClient } from "./clients.ts";
import { issuerOf } from "./metadata.ts";

// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and back-channel logout (Back-Channel
// Logout 1.0). A client names itself by an ID token authd signed (id_token_hint, expired or not) or its
// client_id; the browser is sent back only to a post_logout_redirect_uri that client registered, exactly,
// so the endpoint is no open redirector. Ending a session ends every token family it began, and each
// client with a back-channel URI is told with a signed logout token.

export interface LogoutRequest {
  idTokenHint: string | null;
  clientId: string | null;
  postLogoutRedirectURI: string | null;
}

export type LogoutCheck =
  | { ok: true; client: OAuthClient | null; hintedUserId: string | null; redirectURI: string | null }
  | { ok: false; reason: string };

/** Check a logout request: who asks (if anyone can be told) and where the browser may go afterwards. */
export async function checkLogoutRequest(ctx: AuthContext, request: LogoutRequest): Promise<LogoutCheck> {
  let hinted: { clientId: string; userId: string } | null = null;
  if (request.idTokenHint) {
    const claims = await verifyOwnSignature(request.idTokenHint, await publishedKeys(ctx));
    if (!claims || claims.iss !== issuerOf(ctx) || typeof claims.sub !== "string" || typeof claims.aud !== "string")
      return { ok: false, reason: "id_token_hint is not an ID token authd signed" };
    hinted = { clientId: claims.aud, userId: claims.sub };
  }
  if (hinted && request.clientId && hinted.clientId !== request.clientId)
    return { ok: false, reason: "client_id differs from the id_token_hint's audience" };
  const clientId = hinted?.clientId ?? request.clientId;
  const client = clientId ? await findClient(ctx, clientId) : null;
  if (clientId && !client) return { ok: false, reason: "unknown client" };
  const redirectURI = request.postLogoutRedirectURI;
  if (redirectURI !== null && !client?.postLogoutRedirectURIs.includes(redirectURI))
    return { ok: false, reason: "post_logout_redirect_uri is not one the client registered" };
  return { ok: true, client, hintedUserId: hinted?.userId ?? null, redirectURI };
}

/** How long a back-channel logout POST may take before authd gives up on it. */
const BACKCHANNEL_TIMEOUT_MS = 5_000;

async function notify(ctx: AuthContext, client: OAuthClient, grant: OAuthGrantRow): Promise<void> {
  if (!client.backchannelLogoutURI) return;
  const token = await signLogoutToken(ctx, {
    clientId: client.id,
    alg: client.idTokenAlg,
    userId: grant.userId,
    sessionId: grant.sessionId,
    jti: generateId(),
  });
  try {
    const answer = await fetch(client.backchannelLogoutURI, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cache-control": "no-store" },
      body: new URLSearchParams({ logout_token: token }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(BACKCHANNEL_TIMEOUT_MS),
    });
    if (!answer.ok) ctx.logger.warn("oidc.backchannel_logout_refused", { clientId: client.id, status: answer.status });
  } catch (error) {
    ctx.logger.warn("oidc.backchannel_logout_failed", { clientId: client.id, error: String(error) });
  }
}

/**
 * The session ended: revoke the token families it began and tell their clients over the back channel
 * (in the background: a slow client never holds up the browser). Answers the families revoked.
 */
export async function endSessionFamilies(
  ctx: AuthContext,
  session: { sessionId: string; userId: string },
  clientId: string | null,
  origin: RequestOrigin,
): Promise<OAuthGrantRow[]> {
  const grants = await revokeOAuthGrants(ctx.db, { sessionId: session.sessionId }, ctx.now());
  await recordSecurityEvent(ctx, {
    type: "oidc_logout",
    outcome: "success",
    clientId,
    families: grants.length,
    userId: session.userId,
    source: sourceOf(origin, "user", session.userId),
  });
  const clients = (await listOAuthClientsById(ctx.db, [...new Set(grants.map((g) => g.clientId))])).map(toOAuthClient);
  const told = new Set<string>();
  for (const grant of grants) {
    const client = clients.find((candidate) => candidate.id === grant.clientId);
    // One logout token per client and session, however many families it held.
    if (!client || told.has(client.id)) continue;
    told.add(client.id);
    void notify(ctx, client, grant);
  }
  return grants;
}
