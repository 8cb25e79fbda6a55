import type { ImportedUserTable } from "../import-schema.ts";
import type { Db } from "../schema.ts";

// Which user each imported record became (migrations/20261127200000_create_imported_user_table.ts).

export async function findImportedUserId(db: Db, source: string, sourceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("importedUser")
    .select("userId")
    .where("source", "=", source)
    .where("sourceId", "=", sourceId)
    .executeTakeFirst();
  return row?.userId;
}

export async function insertImportedUser(db: Db, row: ImportedUserTable): Promise<void> {
  await db.insertInto("importedUser").values(row).execute();
}
