import type { AuthContext } from "../context.ts";
import { generateId, generateRandomString } from "../crypto/random.ts";
import * as sessions from "../db/repositories/sessions.ts";
import type { SessionRow, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { iso, isBanned } from "./users.ts";

// Sessions: every read and write of a session goes through here, so a secondary storage (Redis) can be
// layered in one place.
//
// With a secondary storage the database stays the record (lists, cascades, the CLI read it) and Redis
// holds {session, user} per token: written when a session is created, filled on a miss, dropped when the
// session changes. An entry lives at most CACHE_MAX_AGE_SECONDS, which bounds how stale the cached user
// can be when it is changed elsewhere (the cookie cache already accepts 300 s). Revoking writes a
// tombstone instead of deleting, and fills use SET NX, so a read racing a revocation on another daemon
// cannot put the revoked session back.

const CACHE_MAX_AGE_SECONDS = 60;
const REVOKED = "revoked";
const cacheKey = (token: string) => `session:${token}`;

function cacheTTL(ctx: AuthContext, session: SessionRow): number {
  return Math.min(CACHE_MAX_AGE_SECONDS, Math.ceil((Number(session.expiresAt) - ctx.now()) / 1000));
}

async function cacheSession(ctx: AuthContext, found: SessionWithUser, onlyIfAbsent: boolean): Promise<void> {
  const storage = ctx.secondaryStorage;
  const ttl = cacheTTL(ctx, found.session);
  if (!storage || ttl <= 0) return;
  const value = JSON.stringify(found);
  if (onlyIfAbsent) await storage.setIfAbsent(cacheKey(found.session.token), value, ttl);
  else await storage.set(cacheKey(found.session.token), value, ttl);
}

async function forgetSessions(ctx: AuthContext, tokens: string[], mode: "revoked" | "changed"): Promise<void> {
  const storage = ctx.secondaryStorage;
  if (!storage || tokens.length === 0) return;
  if (mode === "changed") await Promise.all(tokens.map((token) => storage.delete(cacheKey(token))));
  else await Promise.all(tokens.map((token) => storage.set(cacheKey(token), REVOKED, CACHE_MAX_AGE_SECONDS)));
}

/** undefined: not cached (ask the database); null: known to be gone. */
async function readCachedSession(ctx: AuthContext, token: string): Promise<SessionWithUser | null | undefined> {
  if (!ctx.secondaryStorage) return undefined;
  const cached = await ctx.secondaryStorage.get(cacheKey(token));
  if (cached === null) return undefined;
  if (cached === REVOKED) return null;
  return JSON.parse(cached) as SessionWithUser;
}

export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

export interface SessionWire {
  id: string;
  token: string;
  userId: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export function toSessionWire(ctx: AuthContext, row: SessionRow): SessionWire {
  const wire: SessionWire = {
    id: row.id,
    token: row.token,
    userId: row.userId,
    expiresAt: iso(row.expiresAt) as string,
    ipAddress: row.ipAddress ?? null,
    userAgent: row.userAgent ?? null,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
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
}

export async function createSession(ctx: AuthContext, user: UserRow, options: CreateSessionOptions = {}): Promise<SessionRow> {
  const now = ctx.now();
  if (ctx.config.admin.enabled && isBanned(user, now)) throw new AuthError("BANNED_USER", { message: ctx.config.admin.bannedUserMessage });
  const lifetime = options.expiresIn ?? (options.rememberMe === false ? ctx.config.session.rememberMeOffExpiresIn : ctx.config.session.expiresIn);
  let created: SessionRow;
  try {
    created = await sessions.insertSession(ctx.db, {
      id: generateId(),
      token: generateRandomString(32),
      userId: user.id,
      expiresAt: now + lifetime * 1000,
      ipAddress: options.ipAddress ?? "",
      userAgent: options.userAgent ?? "",
      createdAt: now,
      updatedAt: now,
      activeOrganizationId: options.activeOrganizationId ?? null,
      activeTeamId: null,
      impersonatedBy: options.impersonatedBy ?? null,
    });
  } catch (error) {
    throw new AuthError("FAILED_TO_CREATE_SESSION", { cause: error });
  }
  await cacheSession(ctx, { session: created, user }, false);
  return created;
}

/** The live session for a token with its user, or null. An expired session is deleted when found. */
export async function findSession(ctx: AuthContext, token: string): Promise<SessionWithUser | null> {
  const cached = await readCachedSession(ctx, token);
  if (cached === null) return null;
  const found = cached ?? (await sessions.findSessionWithUserByToken(ctx.db, token));
  if (!found) return null;
  if (Number(found.session.expiresAt) <= ctx.now()) {
    await revokeSession(ctx, token);
    return null;
  }
  if (cached === undefined) await cacheSession(ctx, found, true);
  return found;
}

/** Whether the session is old enough (since its last refresh) to be extended. */
export function isRefreshDue(ctx: AuthContext, session: SessionRow): boolean {
  const { expiresIn, updateAge } = ctx.config.session;
  const lastRefresh = Number(session.expiresAt) - expiresIn * 1000;
  return lastRefresh + updateAge * 1000 <= ctx.now();
}

export async function refreshSession(ctx: AuthContext, session: SessionRow): Promise<SessionRow> {
  const now = ctx.now();
  const updated = await sessions.updateSessionByToken(ctx.db, session.token, { expiresAt: now + ctx.config.session.expiresIn * 1000, updatedAt: now });
  await forgetSessions(ctx, [session.token], "changed");
  return updated ?? session;
}

export async function updateSession(ctx: AuthContext, token: string, changes: Partial<Omit<SessionRow, "id" | "token">>): Promise<SessionRow | undefined> {
  const updated = await sessions.updateSessionByToken(ctx.db, token, { ...changes, updatedAt: ctx.now() });
  await forgetSessions(ctx, [token], "changed");
  return updated;
}

export function listUserSessions(ctx: AuthContext, userId: string): Promise<SessionRow[]> {
  return sessions.listSessionsByUserId(ctx.db, userId);
}

export async function revokeSession(ctx: AuthContext, token: string): Promise<boolean> {
  const deleted = await sessions.deleteSessionByToken(ctx.db, token);
  await forgetSessions(ctx, [token], "revoked");
  return deleted > 0;
}

/** Revoke all of a user's sessions, except `keepToken` when given; returns how many went. */
export async function revokeUserSessions(ctx: AuthContext, userId: string, keepToken?: string): Promise<number> {
  const tokens = await sessions.deleteSessionsByUserId(ctx.db, userId, keepToken);
  await forgetSessions(ctx, tokens, "revoked");
  return tokens.length;
}

/** Fresh: created within the fresh age (0 disables the check). */
export function isSessionFresh(ctx: AuthContext, session: SessionRow): boolean {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return ctx.now() - Number(session.createdAt) <= freshAge * 1000;
}
