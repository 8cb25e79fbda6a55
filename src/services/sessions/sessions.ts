import type { AuthContext } from "../../context.ts";
import { generateId, generateRandomString } from "../../crypto/random.ts";
import * as sessions from "../../db/repositories/sessions.ts";
import type { Db, SessionRow, UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { isoDate } from "../../wire/common.ts";
import type { Session } from "../../wire/session.ts";
import { withoutControlCharacters } from "../control-characters.ts";
import { recordSecurityEvent, type SecurityEvent } from "../security-events.ts";
import { localReadStamp, readLocalSession, storeLocalSession } from "./local-cache.ts";
import { disownCachedSessions, fillSessionCache, forgetCachedSessions, readCachedSession } from "./redis-cache.ts";
import { dropExpiredSession, revokeSession } from "./revocation.ts";
import { hashSessionToken, type LiveSession } from "./token.ts";

// Sessions: every read and write of a session goes through here, so a secondary storage (Redis) can be
// layered in one place (sessions/redis-cache.ts). Each write keeps the cache right: a session changed or revoked
// by its token hash drops or tombstones that entry; sessions changed by anything else (a user's, an
// organization's) disown every cached entry (disownCachedSessions). Ending sessions is in revocation.ts
// and the stored token hash in token.ts; both are re-exported here, the one import path for sessions.

export {
  deleteExpiredSessions,
  ownRevocationEvent,
  revokeAllSessions,
  revokeOwnSession,
  revokeSession,
  revokeSessionByHandle,
  revokeSessionById,
  revokeUserSessions,
  signOutEvent,
} from "./revocation.ts";
export { hashSessionToken, type LiveSession } from "./token.ts";

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
    await dropExpiredSession(ctx, tokenHash);
    return null;
  }
  return { session: liveSession(found.session, token), user: found.user };
}

/** The live session made from each kept session row, so a current copy answers with the same object each time. */
const liveSessions = new WeakMap<SessionRow, LiveSession>();

/**
 * The session row with the token presented for it. While the row is this process's current copy the same
 * object comes back for the same token, and what is made from it can be kept beside it (http/session-answers.ts).
 */
function liveSession(row: SessionRow, token: string): LiveSession {
  const known = liveSessions.get(row);
  if (known && known.token === token) return known;
  // A kept copy's row is frozen (sessions/local-cache.ts): so is the session made from it, since it is shared.
  const live = Object.isFrozen(row) ? Object.freeze({ ...row, token }) : { ...row, token };
  liveSessions.set(row, live);
  return live;
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

/**
 * The sessions a user sees as their own (list-sessions, the account page): the live ones, without those an
 * administrator opened by impersonation (the admin's, not the user's, as Better Auth does).
 */
export async function listOwnSessions(ctx: AuthContext, userId: string): Promise<SessionRow[]> {
  const now = ctx.now();
  return (await listUserSessions(ctx, userId)).filter((row) => Number(row.expiresAt) > now && !row.impersonatedBy);
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

/** Fresh: created within the fresh age (0 disables the check). */
export function isSessionFresh(ctx: AuthContext, session: SessionRow): boolean {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return ctx.now() - Number(session.createdAt) <= freshAge * 1000;
}

/**
 * A sensitive account change (email, password, second factor, passkeys, API keys) needs a sign-in at most
 * account.freshAge old (default 10 minutes; 0 disables the check). The session's creation is its sign-in:
 * re-authenticating signs in again, which starts a new session. Refused: SESSION_NOT_FRESH (403).
 */
export function assertRecentSignIn(ctx: AuthContext, session: SessionRow): void {
  const freshAge = ctx.config.account.freshAge;
  if (freshAge === 0) return;
  if (ctx.now() - Number(session.createdAt) > freshAge * 1000) throw new AuthError("SESSION_NOT_FRESH");
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
