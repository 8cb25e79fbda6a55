import { compiledOnce } from "../compiled-query.ts";
import type { Db, NewSessionRow, SessionRow, UserRow } from "../schema.ts";

// Sessions are found by the hash of their token (the unique index); the token itself is never stored.

const selectSessionWithUser = compiledOnce((db: Db, tokenHash: string) =>
  db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select([
      "session.id as s_id",
      "session.tokenHash as s_tokenHash",
      "session.userId as s_userId",
      "session.expiresAt as s_expiresAt",
      "session.ipAddress as s_ipAddress",
      "session.userAgent as s_userAgent",
      "session.createdAt as s_createdAt",
      "session.updatedAt as s_updatedAt",
      "session.activeOrganizationId as s_activeOrganizationId",
      "session.activeTeamId as s_activeTeamId",
      "session.impersonatedBy as s_impersonatedBy",
      "user.id",
      "user.name",
      "user.email",
      "user.emailVerified",
      "user.image",
      "user.createdAt",
      "user.updatedAt",
      "user.username",
      "user.displayUsername",
      "user.role",
      "user.banned",
      "user.banReason",
      "user.banExpires",
      "user.additionalFields",
      "user.twoFactorEnabled",
      "user.language",
    ])
    .where("session.tokenHash", "=", tokenHash),
);

/** The session and its user in one round trip (the hot path of every authenticated request). */
export async function findSessionWithUserByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [row] = await selectSessionWithUser(db, tokenHash);
  if (!row) return undefined;
  const session: SessionRow = {
    id: row.s_id,
    tokenHash: row.s_tokenHash,
    userId: row.s_userId,
    expiresAt: row.s_expiresAt,
    ipAddress: row.s_ipAddress,
    userAgent: row.s_userAgent,
    createdAt: row.s_createdAt,
    updatedAt: row.s_updatedAt,
    activeOrganizationId: row.s_activeOrganizationId,
    activeTeamId: row.s_activeTeamId,
    impersonatedBy: row.s_impersonatedBy,
  };
  const user: UserRow = {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    image: row.image,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    username: row.username,
    displayUsername: row.displayUsername,
    role: row.role,
    banned: row.banned,
    banReason: row.banReason,
    banExpires: row.banExpires,
    additionalFields: row.additionalFields,
    twoFactorEnabled: row.twoFactorEnabled,
    language: row.language,
  };
  return { session, user };
}

export function insertSession(db: Db, row: NewSessionRow): Promise<SessionRow> {
  return db.insertInto("session").values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateSessionByTokenHash(
  db: Db,
  tokenHash: string,
  changes: Partial<Omit<SessionRow, "id" | "tokenHash">>,
): Promise<SessionRow | undefined> {
  return db.updateTable("session").set(changes).where("tokenHash", "=", tokenHash).returningAll().executeTakeFirst();
}

export function listSessionsByUserId(db: Db, userId: string): Promise<SessionRow[]> {
  return db.selectFrom("session").selectAll().where("userId", "=", userId).orderBy("createdAt", "asc").execute();
}

export type DeletedSession = Pick<SessionRow, "id" | "tokenHash" | "userId" | "impersonatedBy">;

/**
 * Deletes the sessions whose token hash is one of `tokenHashes`, only the user's when `userId` is given
 * (one statement, so the owner check and the delete cannot drift apart); returns the sessions deleted.
 */
export async function deleteSessionsByTokenHash(
  db: Db,
  tokenHashes: string[],
  userId?: string,
): Promise<DeletedSession[]> {
  if (tokenHashes.length === 0) return [];
  let query = db.deleteFrom("session").where("tokenHash", "in", tokenHashes);
  if (userId !== undefined) query = query.where("userId", "=", userId);
  return query.returning(["id", "tokenHash", "userId", "impersonatedBy"]).execute();
}

/** Deletes the user's sessions, optionally keeping one; returns the sessions deleted. */
export function deleteSessionsByUserId(db: Db, userId: string, keepSessionId?: string): Promise<DeletedSession[]> {
  let query = db.deleteFrom("session").where("userId", "=", userId);
  if (keepSessionId) query = query.where("id", "!=", keepSessionId);
  return query.returning(["id", "tokenHash", "userId", "impersonatedBy"]).execute();
}

/** Clear an organization (and with it the team) from the sessions that have it active: every user's, or one user's. */
export async function clearActiveOrganization(db: Db, organizationId: string, userId?: string): Promise<void> {
  let query = db
    .updateTable("session")
    .set({ activeOrganizationId: null, activeTeamId: null })
    .where("activeOrganizationId", "=", organizationId);
  if (userId !== undefined) query = query.where("userId", "=", userId);
  await query.execute();
}

/** Clear a team from every session that has it active. */
export async function clearActiveTeam(db: Db, teamId: string): Promise<void> {
  await db.updateTable("session").set({ activeTeamId: null }).where("activeTeamId", "=", teamId).execute();
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom("session").where("expiresAt", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SessionListQuery {
  userId?: string;
  /** Only sessions that have not expired at this instant (ms). */
  activeAt?: number;
  limit?: number;
  offset?: number;
}

export type SessionWithEmailRow = SessionRow & { userEmail: string };

function whereSessionsMatch(db: Db, query: SessionListQuery) {
  let select = db.selectFrom("session").innerJoin("user", "user.id", "session.userId");
  if (query.userId) select = select.where("session.userId", "=", query.userId);
  if (query.activeAt !== undefined) select = select.where("session.expiresAt", ">", query.activeAt);
  return select;
}

/** A page of sessions with their user's email, newest first. */
export function listSessions(db: Db, query: SessionListQuery = {}): Promise<SessionWithEmailRow[]> {
  return whereSessionsMatch(db, query)
    .selectAll("session")
    .select("user.email as userEmail")
    .orderBy("session.createdAt", "desc")
    .orderBy("session.id", "asc")
    .limit(query.limit ?? 50)
    .offset(query.offset ?? 0)
    .execute();
}

export async function countSessions(db: Db, query: Omit<SessionListQuery, "limit" | "offset"> = {}): Promise<number> {
  const row = await whereSessionsMatch(db, query)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whose session one of these token hashes is, if any (a revocation that deleted nothing says why). */
export async function findSessionOwnerByTokenHash(db: Db, tokenHashes: string[]): Promise<string | undefined> {
  const row = await db.selectFrom("session").select("userId").where("tokenHash", "in", tokenHashes).executeTakeFirst();
  return row?.userId;
}

export function findSessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom("session").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Deletes up to `batchSize` sessions of any user; returns the sessions deleted. Bulk revocation loops over this
 * so a large table is never locked by one long statement while the server runs.
 */
export async function deleteSessionBatch(db: Db, batchSize: number): Promise<DeletedSession[]> {
  const ids = await db.selectFrom("session").select("id").limit(batchSize).execute();
  if (ids.length === 0) return [];
  return db
    .deleteFrom("session")
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .returning(["id", "tokenHash", "userId", "impersonatedBy"])
    .execute();
}
