import type { Db, JwkRow, NewJwkRow } from "../schema.ts";

// The JWT signing keys (table jwks). The current key has no expiresAt; retired keys carry the time after
// which no token they signed can still be valid.

/** Every key not yet past its expiry, newest first. */
export function listPublishedJwks(db: Db, now: number): Promise<JwkRow[]> {
  return db
    .selectFrom("jwks")
    .selectAll()
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
}

export function insertJwk(db: Db, row: NewJwkRow): Promise<JwkRow> {
  return db.insertInto("jwks").values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Retire the current keys of algorithm `alg` but `keepId`, and those of any algorithm not in `inUse`:
 * published until `expiresAt`. Returns the retired ids.
 */
export async function retireJwks(
  db: Db,
  keepId: string,
  alg: string,
  inUse: readonly string[],
  expiresAt: number,
): Promise<string[]> {
  const rows = await db
    .updateTable("jwks")
    .set({ expiresAt })
    .where("expiresAt", "is", null)
    .where("id", "!=", keepId)
    .where((eb) => eb.or([eb("alg", "=", alg), eb("alg", "not in", [...inUse])]))
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** Delete keys whose tokens have all expired. */
export async function deleteExpiredJwks(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom("jwks").where("expiresAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Swap a key's sealed private half, only if it is still `expected` (another daemon may have done it first). */
export async function replaceJwkPrivateKeyIf(
  db: Db,
  id: string,
  expected: string,
  replacement: string,
): Promise<boolean> {
  const result = await db
    .updateTable("jwks")
    .set({ privateKey: replacement })
    .where("id", "=", id)
    .where("privateKey", "=", expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
