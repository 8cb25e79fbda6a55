import type { AuthContext } from "../../context.ts";
import { generateId, generateRandomString, sha256Base64Url } from "../../crypto/random.ts";
import type { DeletedSession } from "../../db/repositories/sessions.ts";
import * as sessions from "../../db/repositories/sessions.ts";
import type { Db, SessionRow, UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { isoDate } from "../../wire/common.ts";
import type { Session } from "../../wire/session.ts";
import { withoutControlCharacters } from "../control-characters.ts";
import { type EventSource, recordSecurityEvent, type SecurityEvent } from "../security-events.ts";
import { localReadStamp, readLocalSession, storeLocalSession } from "./local-cache.ts";
import { disownCachedSessions, fillSessionCache, forgetCachedSessions, readCachedSession } from "./redis-cache.ts";

// Sessions: every read and write of a session goes through here, so a secondary storage (Redis) can be
// layered in one place (sessions/redis-cache.ts). Each write keeps the cache right: a session changed or revoked
// by its token hash drops or tombstones that entry; sessions changed by anything else (a user's, an
// organization's) disown every cached entry (disownCachedSessions).
//
// Only the SHA-256 of a session token is stored (database and Redis), so a leaked backup or dump holds
// no live session: a cookie needs the token itself, and a hash cannot be turned back into one. A plain
// hash is enough because the token is 32 random characters (190 bits, nothing to guess); a key would
// add nothing against a database reader (the secret may live in that very database) and would tie
// every session, and the migration that converts old rows, to the secret.

/** What is stored for a session token, and the key every lookup uses (the unique index). */
export function hashSessionToken(token: string): string {
  return sha256Base64Url(token);
}

/** A session as its holder presents it: the stored row plus the clear token, known only to the holder. */
export type LiveSession = SessionRow & { token: string };

export interface SessionWithUser {
  session: LiveSession;
  user: UserRow;
}

/** The session on the wire (src/wire/session.ts). */
export type SessionWire = Session;

/** The holder's own session on the wire: `token` is the one they hold (sign-in, get-session, cookies). */
export function toSessionWire(ctx: AuthContext, session: LiveSession): SessionWire {
  return sessionWire(ctx, session, session.token);
}

/**
 * A listed session on the wire (list-sessions, admin listings): `token` is the session's handle, the
 * stored hash. revoke-session accepts it; as a cookie or bearer token it names no session, since the
 * server would hash it again.
 */
export function toListedSessionWire(ctx: AuthContext, row: SessionRow): SessionWire {
  return sessionWire(ctx, row, row.tokenHash);
}

function sessionWire(ctx: AuthContext, row: SessionRow, token: string): Session {
  const wire: Session = {
    id: row.id,
    token,
    userId: row.userId,
    expiresAt: isoDate(row.expiresAt),
    ipAddress: row.ipAddress ?? null,
    userAgent: row.userAgent ?? null,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
  if (ctx.config.organization.enabled) {
    wire.activeOrganizationId = row.activeOrganizationId ?? null;
    wire.activeTeamId = row.activeTeamId ?? null;
  }
  if (ctx.config.admin.enabled) wire.impersonatedBy = row.impersonatedBy ?? null;
  return wire;
}

export interface CreateSessionOptions {
  rememberMe?: boolean;
  ipAddress?: string | null;
  userAgent?: string | null;
  impersonatedBy?: string | null;
  /** Lifetime in seconds, overriding the configured one (impersonation). */
  expiresIn?: number;
  activeOrganizationId?: string | null;
  /** The security event of the sign-in (or impersonation) the session starts, in the same transaction. */
  event?: (session: SessionRow) => SecurityEvent;
}

/** Store a new session for a user (the ban rules are checked first, by startSession in sign-in.ts). */
export async function createSession(
  ctx: AuthContext,
  user: Pick<UserRow, "id">,
  options: CreateSessionOptions = {},
): Promise<LiveSession> {
  const now = ctx.now();
  const lifetime =
    options.expiresIn ??
    (options.rememberMe === false ? ctx.config.session.rememberMeOffExpiresIn : ctx.config.session.expiresIn);
  const token = generateRandomString(32);
  try {
    const row = await withTransaction(ctx, async (tx) => {
      const inserted = await sessions.insertSession(tx.db, {
        id: generateId(),
        tokenHash: hashSessionToken(token),
        userId: user.id,
        expiresAt: now + lifetime * 1000,
        ipAddress: options.ipAddress ?? "",
        // Not the user's own text, and shown to operators: control characters are dropped, not refused.
        userAgent: withoutControlCharacters(options.userAgent ?? ""),
        createdAt: now,
        updatedAt: now,
        activeOrganizationId: options.activeOrganizationId ?? null,
        activeTeamId: null,
        impersonatedBy: options.impersonatedBy ?? null,
      });
      if (options.event) await recordSecurityEvent(tx, options.event(inserted));
      return inserted;
    });
    return { ...row, token };
  } catch (error) {
    throw new AuthError("FAILED_TO_CREATE_SESSION", { cause: error });
  }
}

/**
 * The live session for a token with its user, or null. An expired session is deleted when found. Read from
 * this process's memory when a current copy is there (sessions/local-cache.ts), else from Redis when there
 * is one, else from the database.
 */
export async function findSession(ctx: AuthContext, token: string): Promise<SessionWithUser | null> {
  const tokenHash = hashSessionToken(token);
  const stamp = localReadStamp(ctx);
  let found = stamp ? readLocalSession(ctx, tokenHash, stamp) : undefined;
  if (!found) {
    const cached = await readCachedSession(ctx, tokenHash);
    if (cached.kind === "revoked") return null;
    found =
      cached.kind === "hit"
        ? { session: cached.session, user: cached.user }
        : await sessions.findSessionWithUserByTokenHash(ctx.db, tokenHash);
    if (!found) return null;
    if (cached.kind === "miss" && Number(found.session.expiresAt) > ctx.now())
      await fillSessionCache(ctx, found, cached.generation);
    if (stamp) storeLocalSession(ctx, tokenHash, found, stamp);
  }
  if (Number(found.session.expiresAt) <= ctx.now()) {
    await revokeStoredSessions(ctx, [tokenHash]);
    return null;
  }
  return { session: { ...found.session, token }, user: found.user };
}

/** Whether the session is old enough (since its last refresh) to be extended. */
export function isRefreshDue(ctx: AuthContext, session: SessionRow): boolean {
  // An impersonation session keeps its short lifetime, whatever cookies the client sends back.
  if (session.impersonatedBy) return false;
  const { expiresIn, updateAge } = ctx.config.session;
  const lastRefresh = Number(session.expiresAt) - expiresIn * 1000;
  return lastRefresh + updateAge * 1000 <= ctx.now();
}

export async function refreshSession(ctx: AuthContext, session: LiveSession): Promise<LiveSession> {
  const now = ctx.now();
  return (await updateSession(ctx, session, { expiresAt: now + ctx.config.session.expiresIn * 1000 })) ?? session;
}

/** Change a session's row; the answer keeps whatever the caller's copy carries beside it (its token). */
export async function updateSession<S extends SessionRow>(
  ctx: AuthContext,
  session: S,
  changes: Partial<Omit<SessionRow, "id" | "tokenHash">>,
): Promise<S | undefined> {
  const updated = await sessions.updateSessionByTokenHash(ctx.db, session.tokenHash, {
    ...changes,
    updatedAt: ctx.now(),
  });
  await forgetCachedSessions(ctx, [session.tokenHash], "changed");
  return updated && { ...session, ...updated };
}

export function listUserSessions(ctx: AuthContext, userId: string): Promise<SessionRow[]> {
  return sessions.listSessionsByUserId(ctx.db, userId);
}

async function revokeStoredSessions(
  ctx: AuthContext,
  tokenHashes: string[],
  ownerId?: string,
): Promise<DeletedSession[]> {
  const deleted = await sessions.deleteSessionsByTokenHash(ctx.db, tokenHashes, ownerId);
  // Without an owner to check, every hash asked for gets a tombstone, found or not (a cached copy goes
  // either way). With one, only what was the owner's: a tombstone for another user's session would end it
  // on every daemon, which is the very thing the owner check refuses.
  await forgetCachedSessions(ctx, ownerId === undefined ? tokenHashes : deleted.map((row) => row.tokenHash), "revoked");
  return deleted;
}

/**
 * Replace a session with a new one (new token, fresh lifetime, the same address, agent and active
 * organization) and delete the old one: what turning two-factor on or off does to the caller's session.
 */
export async function rotateSession(ctx: AuthContext, session: LiveSession): Promise<LiveSession> {
  const rotated = await createSession(
    ctx,
    { id: session.userId },
    {
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      activeOrganizationId: session.activeOrganizationId,
    },
  );
  await revokeSession(ctx, session.token);
  return rotated;
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

/** The sign-out of a session's own holder, from where the request came. */
export function signOutEvent(source: EventSource): (revoked: DeletedSession) => SecurityEvent {
  return (revoked) => ({
    type: "sign_out",
    outcome: "success",
    userId: revoked.userId,
    source: { ...source, actorType: "user", actorId: revoked.userId },
  });
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

/** Revoke a session by its id (the terminal UI); answers the session that went, if any. */
export async function revokeSessionById(ctx: AuthContext, sessionId: string): Promise<DeletedSession[]> {
  const row = await sessions.findSessionById(ctx.db, sessionId);
  return row ? revokeStoredSessions(ctx, [row.tokenHash]) : [];
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
  const tokenHashes = await withTransaction(ctx, async (tx) => {
    const hashes = await sessions.deleteSessionsByUserId(tx.db, userId, keep?.id);
    if (hashes.length > 0 && event) await recordSecurityEvent(tx, event(hashes.length));
    return hashes;
  });
  await forgetCachedSessions(ctx, tokenHashes, "revoked");
  return tokenHashes.length;
}

/** Fresh: created within the fresh age (0 disables the check). */
export function isSessionFresh(ctx: AuthContext, session: SessionRow): boolean {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return ctx.now() - Number(session.createdAt) <= freshAge * 1000;
}

/** Revoke every session of every user in batches, reporting the running total after each batch. */
export async function revokeAllSessions(
  ctx: AuthContext,
  onProgress?: (revoked: number) => void,
  batchSize = 500,
): Promise<number> {
  let total = 0;
  for (;;) {
    const tokenHashes = await sessions.deleteSessionBatch(ctx.db, batchSize);
    if (tokenHashes.length === 0) return total;
    await forgetCachedSessions(ctx, tokenHashes, "revoked");
    total += tokenHashes.length;
    onProgress?.(total);
  }
}

/**
 * Clear an organization from the sessions that have it active: every user's, or only `userId`'s (after
 * leaving or removal). `db` may be a transaction: the cache is disowned now and once more after a moment.
 */
export async function clearActiveOrganization(
  ctx: AuthContext,
  db: Db,
  organizationId: string,
  userId?: string,
): Promise<void> {
  await sessions.clearActiveOrganization(db, organizationId, userId);
  await disownCachedSessions(ctx, db);
}

/** Clear a team from every session that has it active (the team is being removed; `db` may be its transaction). */
export async function clearActiveTeam(ctx: AuthContext, db: Db, teamId: string): Promise<void> {
  await sessions.clearActiveTeam(db, teamId);
  await disownCachedSessions(ctx, db);
}

/** Delete the sessions that have expired (an expired session is refused anyway, cached or not); returns how many. */
export function deleteExpiredSessions(ctx: AuthContext): Promise<number> {
  return sessions.deleteExpiredSessions(ctx.db, ctx.now());
}
