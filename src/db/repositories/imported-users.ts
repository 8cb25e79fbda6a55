import type { ImportedUserTable } from "../import-schema.ts";
import type { Db } from "../schema.ts";

// Which user each imported record became (migrations/20261127200000_create_imported_user_table.ts).

export async function insertImportedUser(db: Db, row: ImportedUserTable): Promise<void> {
  await db.insertInto("importedUser").values(row).execute();
}
