import type { AuthContext } from "../context.ts";
import { generateId, generateRandomString } from "../crypto/random.ts";
import * as sessions from "../db/repositories/sessions.ts";
import type { SessionRow, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { iso, isBanned } from "./users.ts";

// Sessions: every read and write of a session goes through here, so a secondary storage (Redis) can be
// layered in one place.

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
  try {
    return await sessions.insertSession(ctx.db, {
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
  const found = await sessions.findSessionWithUserByToken(ctx.db, token);
  if (!found) return null;
  if (Number(found.session.expiresAt) <= ctx.now()) {
    await sessions.deleteSessionByToken(ctx.db, token);
    return null;
  }
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
  return updated ?? session;
}

export async function updateSession(ctx: AuthContext, token: string, changes: Partial<Omit<SessionRow, "id" | "token">>): Promise<SessionRow | undefined> {
  return sessions.updateSessionByToken(ctx.db, token, { ...changes, updatedAt: ctx.now() });
}

export function listUserSessions(ctx: AuthContext, userId: string): Promise<SessionRow[]> {
  return sessions.listSessionsByUserId(ctx.db, userId);
}

export async function revokeSession(ctx: AuthContext, token: string): Promise<boolean> {
  return (await sessions.deleteSessionByToken(ctx.db, token)) > 0;
}

/** Revoke all of a user's sessions, except `keepToken` when given; returns how many went. */
export async function revokeUserSessions(ctx: AuthContext, userId: string, keepToken?: string): Promise<number> {
  return (await sessions.deleteSessionsByUserId(ctx.db, userId, keepToken)).length;
}

/** Fresh: created within the fresh age (0 disables the check). */
export function isSessionFresh(ctx: AuthContext, session: SessionRow): boolean {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return ctx.now() - Number(session.createdAt) <= freshAge * 1000;
}
