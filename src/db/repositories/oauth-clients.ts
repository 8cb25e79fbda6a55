import type { OAuthClientRow, OAuthClientTable } from "../oauth-schema.ts";
import type { Db } from "../schema.ts";

// The OpenID Provider's registered clients (table oauthClient).

export function insertOAuthClient(db: Db, row: Omit<OAuthClientTable, "skipConsent"> & { skipConsent: boolean }) {
  return db.insertInto("oauthClient").values(row).execute();
}

export function findOAuthClient(db: Db, id: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom("oauthClient").selectAll().where("id", "=", id).executeTakeFirst();
}

export function listOAuthClients(db: Db): Promise<OAuthClientRow[]> {
  return db.selectFrom("oauthClient").selectAll().orderBy("createdAt", "asc").orderBy("id", "asc").execute();
}

export function listOAuthClientsById(db: Db, ids: string[]): Promise<OAuthClientRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("oauthClient").selectAll().where("id", "in", ids).execute();
}

export async function updateOAuthClientSecret(db: Db, id: string, secretHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("oauthClient")
    .set({ secretHash, updatedAt: now })
    .where("id", "=", id)
    .where("secretHash", "is not", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What an operator may change of a registered client (never its id, type or secret here). */
export type OAuthClientChanges = Partial<
  Pick<OAuthClientTable, "name" | "redirectURIs" | "postLogoutRedirectURIs" | "backchannelLogoutURI">
> & { skipConsent?: boolean };

export async function updateOAuthClient(
  db: Db,
  id: string,
  changes: OAuthClientChanges,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable("oauthClient")
    .set({ ...changes, updatedAt: now })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Remove a client; its codes, grants, tokens and consents go with it (foreign keys cascade). */
export async function deleteOAuthClient(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("oauthClient").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
