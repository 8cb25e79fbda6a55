import type { AuthContext } from "../context.ts";
import { generateId, generateRandomString } from "../crypto/random.ts";
import * as sessions from "../db/repositories/sessions.ts";
import type { SessionRow, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { fillSessionCache, forgetCachedSessions, readCachedSession } from "./session-cache.ts";
import { liftExpiredBan } from "./admin.ts";
import { iso, isBanned } from "./users.ts";

// Sessions: every read and write of a session goes through here, so a secondary storage (Redis) can be
// layered in one place (session-cache.ts). Its own writes go through the database handle without the
// cache-invalidation plugin: it keeps the cache right itself, entry by entry.

const recordDb = (ctx: AuthContext) => ctx.database.db;

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
  if (ctx.config.admin.enabled && user.banned) await liftExpiredBan(ctx, user.id);
  const lifetime = options.expiresIn ?? (options.rememberMe === false ? ctx.config.session.rememberMeOffExpiresIn : ctx.config.session.expiresIn);
  try {
    return await sessions.insertSession(recordDb(ctx), {
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
}

/** The live session for a token with its user, or null. An expired session is deleted when found. */
export async function findSession(ctx: AuthContext, token: string): Promise<SessionWithUser | null> {
  const cached = await readCachedSession(ctx, token);
  if (cached.kind === "revoked") return null;
  const found = cached.kind === "hit" ? { session: cached.session, user: cached.user } : await sessions.findSessionWithUserByToken(recordDb(ctx), token);
  if (!found) return null;
  if (Number(found.session.expiresAt) <= ctx.now()) {
    await revokeSession(ctx, token);
    return null;
  }
  if (cached.kind === "miss") await fillSessionCache(ctx, found, cached.generation);
  return found;
}

/** Whether the session is old enough (since its last refresh) to be extended. */
export function isRefreshDue(ctx: AuthContext, session: SessionRow): boolean {
  // An impersonation session keeps its short lifetime, whatever cookies the client sends back.
  if (session.impersonatedBy) return false;
  const { expiresIn, updateAge } = ctx.config.session;
  const lastRefresh = Number(session.expiresAt) - expiresIn * 1000;
  return lastRefresh + updateAge * 1000 <= ctx.now();
}

export async function refreshSession(ctx: AuthContext, session: SessionRow): Promise<SessionRow> {
  const now = ctx.now();
  const updated = await sessions.updateSessionByToken(recordDb(ctx), session.token, { expiresAt: now + ctx.config.session.expiresIn * 1000, updatedAt: now });
  await forgetCachedSessions(ctx, [session.token], "changed");
  return updated ?? session;
}

export async function updateSession(ctx: AuthContext, token: string, changes: Partial<Omit<SessionRow, "id" | "token">>): Promise<SessionRow | undefined> {
  const updated = await sessions.updateSessionByToken(recordDb(ctx), token, { ...changes, updatedAt: ctx.now() });
  await forgetCachedSessions(ctx, [token], "changed");
  return updated;
}

export function listUserSessions(ctx: AuthContext, userId: string): Promise<SessionRow[]> {
  return sessions.listSessionsByUserId(recordDb(ctx), userId);
}

export async function revokeSession(ctx: AuthContext, token: string): Promise<boolean> {
  const deleted = await sessions.deleteSessionByToken(recordDb(ctx), token);
  await forgetCachedSessions(ctx, [token], "revoked");
  return deleted > 0;
}

/** Revoke all of a user's sessions, except `keepToken` when given; returns how many went. */
export async function revokeUserSessions(ctx: AuthContext, userId: string, keepToken?: string): Promise<number> {
  const tokens = await sessions.deleteSessionsByUserId(recordDb(ctx), userId, keepToken);
  await forgetCachedSessions(ctx, tokens, "revoked");
  return tokens.length;
}

/** Fresh: created within the fresh age (0 disables the check). */
export function isSessionFresh(ctx: AuthContext, session: SessionRow): boolean {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return ctx.now() - Number(session.createdAt) <= freshAge * 1000;
}

/** Revoke every session of every user in batches, reporting the running total after each batch. */
export async function revokeAllSessions(ctx: AuthContext, onProgress?: (revoked: number) => void, batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const tokens = await sessions.deleteSessionBatch(recordDb(ctx), batchSize);
    if (tokens.length === 0) return total;
    await forgetCachedSessions(ctx, tokens, "revoked");
    total += tokens.length;
    onProgress?.(total);
  }
}
