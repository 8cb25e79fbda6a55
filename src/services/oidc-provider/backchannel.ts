import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import type { OAuthGrantRow } from "../../db/oauth-schema.ts";
import { listOAuthClientsById } from "../../db/repositories/oauth-clients.ts";
import { revokeOAuthGrants } from "../../db/repositories/oauth-grants.ts";
import type { DeletedSession } from "../../db/repositories/sessions.ts";
import { afterCommit } from "../../platform/transaction.ts";
import { signLogoutToken } from "./claims.ts";
import { type OAuthClient, toOAuthClient } from "./clients.ts";

// Back-channel logout (OpenID Connect Back-Channel Logout 1.0) on every end of a session at authd: the core
// calls the sessionsEnded hook (services/sessions/revocation.ts) for a sign-out, a revocation by the user or
// an operator, a ban, a deletion, a password change or reset that ends the other sessions, and the RP-initiated
// end-session endpoint. In the revocation's transaction the token families those sessions began are revoked,
// so the clients' access and refresh tokens stop working at once; once it commits, each client that holds
// one of them and registered a backchannel_logout_uri is sent one signed logout token per session.
//
// Delivery is background work (ctx.background): the request that ended the session never waits for a
// client. Each POST is bounded in time; a network failure or a 5xx is tried again a few times, then given up
// and logged (the families are revoked regardless); a refusal (4xx, 501) is logged and not repeated.

/** How long one back-channel POST may take before authd gives up on it. */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** The pauses before the second and third attempts; a logout token lives two minutes, well beyond them. */
const RETRY_DELAYS_MS = [1_000, 4_000];
/** Sessions per statement when many end at once (a user's every session, an operator ending everyone's). */
const SESSIONS_PER_STATEMENT = 500;

/** A client to tell that one session ended. */
interface LogoutNotice {
  clientId: string;
  alg: OAuthClient["idTokenAlg"];
  uri: string;
  userId: string;
  sessionId: string;
}

async function revokeFamiliesOf(ctx: AuthContext, ended: readonly DeletedSession[]): Promise<OAuthGrantRow[]> {
  const revoked: OAuthGrantRow[] = [];
  for (let start = 0; start < ended.length; start += SESSIONS_PER_STATEMENT) {
    const sessionIds = ended.slice(start, start + SESSIONS_PER_STATEMENT).map((session) => session.id);
    revoked.push(...(await revokeOAuthGrants(ctx.db, { sessionIds }, ctx.now())));
  }
  return revoked;
}

/** One notice per client and session, however many families that session gave the client. */
async function logoutNotices(ctx: AuthContext, grants: OAuthGrantRow[]): Promise<LogoutNotice[]> {
  const clientIds = [...new Set(grants.map((grant) => grant.clientId))];
  const clients = new Map<string, OAuthClient>();
  for (const row of await listOAuthClientsById(ctx.db, clientIds)) clients.set(row.id, toOAuthClient(row));
  const notices = new Map<string, LogoutNotice>();
  for (const grant of grants) {
    const client = clients.get(grant.clientId);
    const key = `${grant.clientId}\n${grant.sessionId}`;
    if (!client?.backchannelLogoutURI || notices.has(key)) continue;
    const { idTokenAlg: alg, backchannelLogoutURI: uri } = client;
    notices.set(key, { clientId: client.id, alg, uri, userId: grant.userId, sessionId: grant.sessionId });
  }
  return [...notices.values()];
}

/**
 * The sessionsEnded handler: revoke the families the sessions began (in the caller's transaction) and, once
 * it commits, send their clients' logout tokens in the background. Nothing to do while the provider is off
 * (a family can be refreshed only while it is on, and never once its session is gone).
 */
export async function endFamiliesOfSessions(ctx: AuthContext, ended: readonly DeletedSession[]): Promise<void> {
  if (!ctx.config.oidcProvider.enabled) return;
  const grants = await revokeFamiliesOf(ctx, ended);
  if (grants.length === 0) return;
  const notices = await logoutNotices(ctx, grants);
  // Signed after the commit, on the database itself: loading a signing key inside the transaction could wait
  // on a load another request started on the outer handle, which waits for this transaction (SQLite).
  afterCommit(ctx.db, (db) => {
    for (const notice of notices) ctx.background(deliverLogoutToken({ ...ctx, db }, notice));
  });
}

type Attempt = { done: true } | { done: false; retry: boolean; reason: string };

async function postLogoutToken(uri: string, token: string): Promise<Attempt> {
  try {
    const answer = await fetch(uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cache-control": "no-store" },
      body: new URLSearchParams({ logout_token: token }).toString(),
      // A redirect is no answer: following it would send the token somewhere the client did not register.
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await answer.body?.cancel();
    if (answer.ok) return { done: true };
    // Back-Channel Logout §2.8: 400 is the client refusing the token, 501 a client that does not do it.
    const retry = answer.status >= 500 && answer.status !== 501;
    return { done: false, retry, reason: `status ${answer.status}` };
  } catch (error) {
    return { done: false, retry: true, reason: String(error) };
  }
}

/** Sign the client's logout token and POST it, trying again after a network failure or a 5xx. */
async function deliverLogoutToken(ctx: AuthContext, notice: LogoutNotice): Promise<void> {
  const { clientId, alg, userId, sessionId } = notice;
  const token = await signLogoutToken(ctx, { clientId, alg, userId, sessionId, jti: generateId() });
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await postLogoutToken(notice.uri, token);
    if (outcome.done) return;
    const pause = RETRY_DELAYS_MS[attempt - 1];
    if (!outcome.retry || pause === undefined) {
      const event = outcome.retry ? "oidc.backchannel_logout_failed" : "oidc.backchannel_logout_refused";
      ctx.logger.warn(event, { clientId: notice.clientId, attempts: attempt, reason: outcome.reason });
      return;
    }
    await new Promise((resume) => setTimeout(resume, pause));
  }
}
