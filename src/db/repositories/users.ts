import type { Kysely, Transaction } from "kysely";
import type { Database, NewUserRow, UserRow, UserUpdate } from "../schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
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

export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("user").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
