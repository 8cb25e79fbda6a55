import type { AuthContext } from "../context.ts";
import * as directory from "../db/repositories/directory.ts";
import { countSessions, listSessions } from "../db/repositories/sessions.ts";
import { countUsers, findUserByIdOrEmail, listUsers } from "../db/repositories/users.ts";
import type { SessionRow } from "../db/schema.ts";
import { type ApiKeyWire, toApiKeyWire } from "./api-keys/api-keys.ts";
import { toOrganizationWire } from "./organizations/wire.ts";
import { type SessionWire, toListedSessionWire } from "./sessions/sessions.ts";
import { isBanned, toUserWire, type UserWire } from "./users.ts";

// What operators list and look up, for the command line and the terminal UI alike: one page of wire
// objects and the total, newest first (ties broken by id, so pages never overlap). Both front ends read
// through these functions, so a listing or its mapping exists once.

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface SearchPageRequest extends PageRequest {
  /** Matched literally and case-insensitively anywhere in the listing's text columns. */
  search?: string;
}

async function page<T>(items: Promise<T[]>, total: Promise<number>): Promise<Page<T>> {
  const [rows, count] = await Promise.all([items, total]);
  return { items: rows, total: count };
}

/** Users whose email, name or username contains the search text. */
export function listUserPage(ctx: AuthContext, request: SearchPageRequest): Promise<Page<UserWire>> {
  const rows = listUsers(ctx.db, request).then((users) => users.map((row) => toUserWire(ctx, row)));
  return page(rows, countUsers(ctx.db, request));
}

/**
 * A session as operators see it: the wire shape without `token`. Even the handle stays out of operator
 * output (it revokes the session through the API); the id names a session here.
 */
export type SessionSummary = Pick<
  SessionWire,
  "id" | "userId" | "expiresAt" | "ipAddress" | "userAgent" | "createdAt" | "updatedAt"
> &
  Record<string, unknown>;

export function toSessionSummary(ctx: AuthContext, row: SessionRow): SessionSummary {
  const { token: _handle, ...summary } = toListedSessionWire(ctx, row);
  return summary;
}

export type ListedSession = SessionSummary & { userEmail: string };

export interface SessionPageRequest extends PageRequest {
  /** Only this user's sessions. */
  userId?: string;
  /** Expired sessions too (by default only those still active). */
  includeExpired?: boolean;
}

export function listSessionPage(ctx: AuthContext, request: SessionPageRequest): Promise<Page<ListedSession>> {
  const filter = { userId: request.userId, activeAt: request.includeExpired ? undefined : ctx.now() };
  const rows = listSessions(ctx.db, { ...filter, limit: request.limit, offset: request.offset });
  return page(
    rows.then((sessions) => sessions.map((row) => ({ ...toSessionSummary(ctx, row), userEmail: row.userEmail }))),
    countSessions(ctx.db, filter),
  );
}

export type ListedOrganization = ReturnType<typeof toOrganizationWire> & { memberCount: number };

/** Organizations whose name or slug contains the search text, with their member counts. */
export function listOrganizationPage(ctx: AuthContext, request: SearchPageRequest): Promise<Page<ListedOrganization>> {
  const rows = directory.listOrganizations(ctx.db, request);
  return page(
    rows.then((organizations) =>
      organizations.map((row) => ({ ...toOrganizationWire(row), memberCount: row.memberCount })),
    ),
    directory.countOrganizations(ctx.db, request),
  );
}

/** ownerBanned: the owner's ban is in force, so verification and the key header refuse the key. */
export type ListedApiKey = ApiKeyWire & { userEmail: string; ownerBanned: boolean };

export interface ApiKeyPageRequest extends SearchPageRequest {
  /** Only this user's keys. */
  userId?: string;
  /** Only keys switched on (true) or off (false). */
  enabled?: boolean;
  /** Only expired keys (true), or only keys without an expiry or with one still ahead (false). */
  expired?: boolean;
}

/** API keys of every user (or one), never the keys themselves; the search text matches name, prefix, start or owner email. */
export function listApiKeyPage(ctx: AuthContext, request: ApiKeyPageRequest): Promise<Page<ListedApiKey>> {
  const now = ctx.now();
  const query = { ...request, now };
  const rows = directory.listApiKeysWithOwner(ctx.db, query);
  const items = rows.then((keys) =>
    keys.map((row) => ({
      ...toApiKeyWire(row),
      userEmail: row.userEmail,
      ownerBanned: isBanned({ banned: row.ownerBanned, banExpires: row.ownerBanExpires }, now),
    })),
  );
  const { limit: _limit, offset: _offset, ...filter } = query;
  return page(items, directory.countApiKeys(ctx.db, filter));
}

/** The id of the user named by id or email (operators name users either way), or null. */
export async function findUserIdByIdOrEmail(ctx: AuthContext, idOrEmail: string): Promise<string | null> {
  const user = await findUserByIdOrEmail(ctx.db, idOrEmail);
  return user?.id ?? null;
}

/** Whose key this is (operators name a key by its id alone), or null. */
export async function findApiKeyOwnerId(ctx: AuthContext, keyId: string): Promise<string | null> {
  return (await directory.findApiKeyOwnerId(ctx.db, keyId)) ?? null;
}
