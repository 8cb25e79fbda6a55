import { sql } from "kysely";
import type { Db, NewUserRow, Trx, UserRow, UserUpdate } from "../schema.ts";
import { countUserRows, listUserRows, type UserMatch } from "./user-listing.ts";

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
}

/** The language the user with this address chose for the pages and mails (null: none, or no such user). */
export async function findUserLanguageByEmail(db: Db, email: string): Promise<string | null> {
  const row = await db
    .selectFrom("user")
    .select("language")
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row?.language ?? null;
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("username", "=", username.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Db, row: NewUserRow): Promise<UserRow> {
  return db.insertInto("user").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: Db, id: string, changes: UserUpdate): Promise<UserRow | undefined> {
  return db.updateTable("user").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

/** Mark the address verified; true only when this call flipped it (it was unverified). */
export async function markEmailVerifiedOnce(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("user")
    .set({ emailVerified: true, updatedAt: now })
    .where("id", "=", id)
    .where("emailVerified", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Hold the user's row until the transaction ends (Postgres); SQLite transactions already run one at a
 * time, so there is nothing to take there.
 */
/** The emails of the users among `ids` that still exist. */
export async function listUserEmails(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("user").select(["id", "email"]).where("id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function lockUser(trx: Trx, dialect: "sqlite" | "postgres", id: string): Promise<void> {
  if (dialect === "postgres") await sql`select 1 from "user" where id = ${id} for update`.execute(trx);
}

export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("user").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface UserListQuery {
  /** Matches email, name or username, case-insensitively, anywhere in the text. */
  search?: string;
  limit?: number;
  offset?: number;
}

// The operators' directory (CLI and terminal UI) over the one user listing (user-listing.ts).
function operatorMatch(search: string | undefined): UserMatch {
  return search ? { search: { fields: ["email", "name", "username"], value: search, position: "contains" } } : {};
}

/** A page of users, newest first (ties broken by id so pages never overlap). */
export function listUsers(db: Db, query: UserListQuery = {}): Promise<UserRow[]> {
  return listUserRows(db, {
    ...operatorMatch(query.search),
    sort: { field: "createdAt", direction: "desc" },
    limit: query.limit ?? 50,
    offset: query.offset ?? 0,
  });
}

export function countUsers(db: Db, query: Pick<UserListQuery, "search"> = {}): Promise<number> {
  return countUserRows(db, operatorMatch(query.search));
}

/** A user by id, or by email when the text looks like one. */
export async function findUserByIdOrEmail(db: Db, idOrEmail: string): Promise<UserRow | undefined> {
  if (idOrEmail.includes("@")) return findUserByEmail(db, idOrEmail);
  return findUserById(db, idOrEmail);
}
