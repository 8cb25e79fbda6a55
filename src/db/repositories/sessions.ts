import type { Kysely, Transaction } from "kysely";
import type { Database, NewSessionRow, SessionRow, UserRow } from "../schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export function findSessionByToken(db: Db, token: string): Promise<SessionRow | undefined> {
  return db.selectFrom("session").selectAll().where("token", "=", token).executeTakeFirst();
}

/** The session and its user in one round trip (the hot path of every authenticated request). */
export async function findSessionWithUserByToken(db: Db, token: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select([
      "session.id as s_id", "session.token as s_token", "session.userId as s_userId", "session.expiresAt as s_expiresAt",
      "session.ipAddress as s_ipAddress", "session.userAgent as s_userAgent", "session.createdAt as s_createdAt",
      "session.updatedAt as s_updatedAt", "session.activeOrganizationId as s_activeOrganizationId",
      "session.activeTeamId as s_activeTeamId", "session.impersonatedBy as s_impersonatedBy",
      "user.id", "user.name", "user.email", "user.emailVerified", "user.image", "user.createdAt", "user.updatedAt",
      "user.username", "user.displayUsername", "user.role", "user.banned", "user.banReason", "user.banExpires", "user.additionalFields",
    ])
    .where("session.token", "=", token)
    .executeTakeFirst();
  if (!row) return undefined;
  const session: SessionRow = {
    id: row.s_id, token: row.s_token, userId: row.s_userId, expiresAt: row.s_expiresAt, ipAddress: row.s_ipAddress,
    userAgent: row.s_userAgent, createdAt: row.s_createdAt, updatedAt: row.s_updatedAt,
    activeOrganizationId: row.s_activeOrganizationId, activeTeamId: row.s_activeTeamId, impersonatedBy: row.s_impersonatedBy,
  };
  const user: UserRow = {
    id: row.id, name: row.name, email: row.email, emailVerified: row.emailVerified, image: row.image, createdAt: row.createdAt,
    updatedAt: row.updatedAt, username: row.username, displayUsername: row.displayUsername, role: row.role, banned: row.banned,
    banReason: row.banReason, banExpires: row.banExpires, additionalFields: row.additionalFields,
  };
  return { session, user };
}

export function insertSession(db: Db, row: NewSessionRow): Promise<SessionRow> {
  return db.insertInto("session").values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateSessionByToken(db: Db, token: string, changes: Partial<Omit<SessionRow, "id" | "token">>): Promise<SessionRow | undefined> {
  return db.updateTable("session").set(changes).where("token", "=", token).returningAll().executeTakeFirst();
}

export function listSessionsByUserId(db: Db, userId: string): Promise<SessionRow[]> {
  return db.selectFrom("session").selectAll().where("userId", "=", userId).orderBy("createdAt", "asc").execute();
}

export async function deleteSessionByToken(db: Db, token: string): Promise<number> {
  const result = await db.deleteFrom("session").where("token", "=", token).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the user's sessions, optionally keeping one token; returns the tokens deleted. */
export async function deleteSessionsByUserId(db: Db, userId: string, keepToken?: string): Promise<string[]> {
  let query = db.deleteFrom("session").where("userId", "=", userId);
  if (keepToken) query = query.where("token", "!=", keepToken);
  const rows = await query.returning("token").execute();
  return rows.map((r) => r.token);
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
  const row = await whereSessionsMatch(db, query).select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findSessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom("session").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Deletes up to `batchSize` sessions of any user; returns their tokens. Bulk revocation loops over this
 * so a large table is never locked by one long statement while the server runs.
 */
export async function deleteSessionBatch(db: Db, batchSize: number): Promise<string[]> {
  const ids = await db.selectFrom("session").select("id").limit(batchSize).execute();
  if (ids.length === 0) return [];
  const rows = await db.deleteFrom("session").where("id", "in", ids.map((r) => r.id)).returning("token").execute();
  return rows.map((r) => r.token);
}
