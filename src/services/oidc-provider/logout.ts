import type { AuthContext } from "../../context.ts";
import { verifyOwnSignature } from "../../crypto/jwt.ts";
import { countLiveOAuthGrantsOfSession } from "../../db/repositories/oauth-grants.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { publishedKeys } from "../jwt/keys.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import { revokeSession, signOutEvent } from "../sessions/sessions.ts";
import { findClient, type OAuthClient } from "./clients.ts";
import { issuerOf } from "./metadata.ts";

// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and back-channel logout (Back-Channel
// Logout 1.0). A client names itself by an ID token authd signed (id_token_hint, expired or not) or its
// client_id; the browser is sent back only to a post_logout_redirect_uri that client registered, exactly,
// so the endpoint is no open redirector. Ending a session ends every token family it began, and each
// client with a back-channel URI is told with a signed logout token (backchannel.ts, for every end of a
// session, not only this one).

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

/**
 * The browser's sessions end at its client's request (the end-session endpoint, the user's own ID token as
 * the hint): each is revoked like a sign-out, which ends their token families and tells back-channel clients
 * (backchannel.ts, through the sessionsEnded hook); the request itself is recorded as `oidc_logout`.
 */
export async function logOutAtClientRequest(
  ctx: AuthContext,
  request: {
    sessionTokens: string[];
    session: { sessionId: string; userId: string };
    clientId: string | null;
    origin: RequestOrigin;
  },
): Promise<void> {
  const { session, origin } = request;
  await withTransaction(ctx, async (tx) => {
    const families = await countLiveOAuthGrantsOfSession(tx.db, session.sessionId);
    const source = sourceOf(origin, "user", session.userId);
    for (const token of request.sessionTokens) await revokeSession(tx, token, signOutEvent(source));
    await recordSecurityEvent(tx, {
      type: "oidc_logout",
      outcome: "success",
      clientId: request.clientId,
      families,
      userId: session.userId,
      source,
    });
  });
}
