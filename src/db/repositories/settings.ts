import type { Db } from "../schema.ts";

// authd's own settings (key → value), such as the secret generated when AUTH_SECRET is not set.

export async function findSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("authdSetting").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** Store the value unless the key already has one (the first writer wins a race between processes). */
export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto("authdSetting")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}

/** Store the value, replacing the one the key had. */
export async function upsertSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto("authdSetting")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}
