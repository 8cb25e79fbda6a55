import type { AuthContext } from "../../context.ts";
import type { DeletedSession } from "../../db/repositories/sessions.ts";
import * as sessions from "../../db/repositories/sessions.ts";
import type { SessionRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { defineHook } from "../hooks.ts";
import { type EventSource, recordSecurityEvent, type SecurityEvent } from "../security-events.ts";
import { forgetCachedSessions } from "./redis-cache.ts";
import { hashSessionToken } from "./token.ts";

// Ending sessions: sign-out, a user revoking their own, an operator revoking a user's or everyone's, and
// the sweep of expired ones. Each revocation tombstones the cached copies by token hash
// (forgetCachedSessions) after the delete, so a revoked session is refused on every daemon at once, not
// when its cache entry would have run out. Creation, reads and refreshes are in sessions.ts, which
// re-exports these. Every revocation tells the features through the sessionsEnded hook, in its transaction.

/**
 * Sessions someone ended: a sign-out, a revocation by their user or an operator, a ban, a deletion, a
 * password change or reset that ends the others. Each feature that gave something out on a session's
 * strength ends it too, in the revocation's transaction (the OpenID Provider's token families, and a
 * back-channel logout to its clients once committed). An expired session is no such end: nobody ended it.
 */
export const sessionsEnded =
  defineHook<(ctx: AuthContext, ended: readonly DeletedSession[]) => Promise<void>>("sessionsEnded");

async function tellSessionsEnded(ctx: AuthContext, ended: readonly DeletedSession[]): Promise<void> {
  if (ended.length === 0) return;
  for (const handler of sessionsEnded.handlers()) await handler(ctx, ended);
}

/** Delete sessions by token hash and tombstone their cached copies. */
export async function revokeStoredSessions(
  ctx: AuthContext,
  tokenHashes: string[],
  ownerId?: string,
): Promise<DeletedSession[]> {
  const deleted = await withTransaction(ctx, async (tx) => {
    const gone = await sessions.deleteSessionsByTokenHash(tx.db, tokenHashes, ownerId);
    await tellSessionsEnded(tx, gone);
    return gone;
  });
  // Without an owner to check, every hash asked for gets a tombstone, found or not (a cached copy goes
  // either way). With one, only what was the owner's: a tombstone for another user's session would end it
  // on every daemon, which is the very thing the owner check refuses.
  await forgetCachedSessions(ctx, ownerId === undefined ? tokenHashes : deleted.map((row) => row.tokenHash), "revoked");
  return deleted;
}

/** An expired session a read came across: deleted and tombstoned, with nothing to tell (it was not ended). */
export async function dropExpiredSession(ctx: AuthContext, tokenHash: string): Promise<void> {
  await sessions.deleteSessionsByTokenHash(ctx.db, [tokenHash]);
  await forgetCachedSessions(ctx, [tokenHash], "revoked");
}

/** Revoke the session of a token the caller holds (sign-out). */
export async function revokeSession(
  ctx: AuthContext,
  token: string,
  event?: (revoked: DeletedSession) => SecurityEvent,
): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    const [revoked] = await revokeStoredSessions(tx, [hashSessionToken(token)]);
    if (revoked && event) await recordSecurityEvent(tx, event(revoked));
    return revoked !== undefined;
  });
}

/** A user ending their own sessions (revoke-session, revoke-sessions, revoke-other-sessions). */
export function ownRevocationEvent(
  userId: string,
  source: EventSource,
  scope: "session" | "user",
  count: number,
  sessionId?: string,
): SecurityEvent {
  return {
    type: "session_revoked",
    outcome: "success",
    scope,
    count,
    ...(sessionId ? { sessionId } : {}),
    userId,
    source: { ...source, actorType: "user", actorId: userId },
  };
}

/**
 * The sign-out of a session's own holder, from where the request came; an impersonation session's sign-out
 * names the administrator too (the route ends the session without resolving it first).
 */
export function signOutEvent(source: EventSource): (revoked: DeletedSession) => SecurityEvent {
  return (revoked) => {
    const signedOut: EventSource = { ...source, actorType: "user", actorId: revoked.userId };
    if (revoked.impersonatedBy) signedOut.impersonation = { adminId: revoked.impersonatedBy, userId: revoked.userId };
    return { type: "sign_out", outcome: "success", userId: revoked.userId, source: signedOut };
  };
}

/**
 * Revoke a session named the way a client may name it: by its handle (the `token` of a listed session)
 * or, as Better Auth clients may, by the token itself. With `ownerId`, only that user's session can go,
 * so another user's handle or token revokes nothing and reveals nothing. Answers the sessions that went.
 */
export function revokeSessionByHandle(
  ctx: AuthContext,
  handleOrToken: string,
  ownerId?: string,
): Promise<DeletedSession[]> {
  return revokeStoredSessions(ctx, [handleOrToken, hashSessionToken(handleOrToken)], ownerId);
}

/**
 * Revoke one of the owner's sessions by handle or token, as Better Auth does: a session that is not there
 * is "Session not found" (400), another user's is "Unauthorized" (401), and neither revokes anything. The
 * owner check is part of the delete itself; the look-up afterwards only names the refusal.
 */
export async function revokeOwnSession(
  ctx: AuthContext,
  handleOrToken: string,
  ownerId: string,
  event?: (revoked: DeletedSession) => SecurityEvent,
): Promise<void> {
  const hashes = [handleOrToken, hashSessionToken(handleOrToken)];
  const deleted = await withTransaction(ctx, async (tx) => {
    const gone = await revokeStoredSessions(tx, hashes, ownerId);
    if (gone[0] && event) await recordSecurityEvent(tx, event(gone[0]));
    return gone;
  });
  if (deleted.length > 0) return;
  const owner = await sessions.findSessionOwnerByTokenHash(ctx.db, hashes);
  throw new AuthError(owner === undefined ? "SESSION_NOT_FOUND" : "UNAUTHORIZED");
}

/**
 * Revoke a session by its id (the terminal UI, the console); answers the session that went, if any. With
 * `ownerId`, only that user's session can go (the console acts on one user's page).
 */
export async function revokeSessionById(
  ctx: AuthContext,
  sessionId: string,
  ownerId?: string,
): Promise<DeletedSession[]> {
  const row = await sessions.findSessionById(ctx.db, sessionId);
  return row ? revokeStoredSessions(ctx, [row.tokenHash], ownerId) : [];
}

/**
 * Revoke all of a user's sessions, except `keep` when given; returns how many went. With `event`, the
 * revocation's event is written in the same transaction (when any session went).
 */
export async function revokeUserSessions(
  ctx: AuthContext,
  userId: string,
  keep?: SessionRow,
  event?: (count: number) => SecurityEvent,
): Promise<number> {
  const deleted = await withTransaction(ctx, async (tx) => {
    const gone = await sessions.deleteSessionsByUserId(tx.db, userId, keep?.id);
    if (gone.length > 0 && event) await recordSecurityEvent(tx, event(gone.length));
    await tellSessionsEnded(tx, gone);
    return gone;
  });
  await forgetCachedSessions(
    ctx,
    deleted.map((row) => row.tokenHash),
    "revoked",
  );
  return deleted.length;
}

/** Revoke every session of every user in batches, reporting the running total after each batch. */
export async function revokeAllSessions(
  ctx: AuthContext,
  onProgress?: (revoked: number) => void,
  batchSize = 500,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await withTransaction(ctx, async (tx) => {
      const gone = await sessions.deleteSessionBatch(tx.db, batchSize);
      await tellSessionsEnded(tx, gone);
      return gone;
    });
    if (deleted.length === 0) return total;
    await forgetCachedSessions(
      ctx,
      deleted.map((row) => row.tokenHash),
      "revoked",
    );
    total += deleted.length;
    onProgress?.(total);
  }
}

/** Delete the sessions that have expired (an expired session is refused anyway, cached or not); returns how many. */
export function deleteExpiredSessions(ctx: AuthContext): Promise<number> {
  return sessions.deleteExpiredSessions(ctx.db, ctx.now());
}
