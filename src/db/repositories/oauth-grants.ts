import type { NewOAuthCodeRow, OAuthCodeRow, OAuthGrantRow, OAuthGrantTable } from "../oauth-schema.ts";
import type { Db } from "../schema.ts";

// Authorization codes, token families (grants), their tokens and remembered consents (the oauth* tables).

export function insertOAuthCode(db: Db, row: NewOAuthCodeRow) {
  return db.insertInto("oauthCode").values(row).execute();
}

export function findOAuthCode(db: Db, id: string): Promise<OAuthCodeRow | undefined> {
  return db.selectFrom("oauthCode").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Mark a code used, only if no one did before: true for exactly one of any number of concurrent callers. */
export async function claimOAuthCode(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("oauthCode")
    .set({ usedAt: now })
    .where("id", "=", id)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Delete what can no longer be used nor tell of a replay: codes expired before `codesBefore`, access
 * tokens past their expiry, and families expired or revoked before `familiesBefore` (their tokens go
 * with them).
 */
export async function deleteSpentOAuthRows(db: Db, now: number, codesBefore: number, familiesBefore: number) {
  await db.deleteFrom("oauthCode").where("expiresAt", "<", codesBefore).execute();
  await db.deleteFrom("oauthToken").where("kind", "=", "access").where("expiresAt", "<", now).execute();
  await db
    .deleteFrom("oauthGrant")
    .where((eb) => eb.or([eb("expiresAt", "<", familiesBefore), eb("revokedAt", "<", familiesBefore)]))
    .execute();
}

export function insertOAuthGrant(db: Db, row: OAuthGrantTable) {
  return db.insertInto("oauthGrant").values(row).execute();
}

export function findOAuthGrant(db: Db, id: string): Promise<OAuthGrantRow | undefined> {
  return db.selectFrom("oauthGrant").selectAll().where("id", "=", id).executeTakeFirst();
}

/** End token families: each of their tokens stops working. Returns the families this call revoked. */
export async function revokeOAuthGrants(
  db: Db,
  where: { id?: string; sessionIds?: string[]; userId?: string; clientId?: string },
  now: number,
): Promise<OAuthGrantRow[]> {
  if (where.sessionIds?.length === 0) return [];
  let query = db.updateTable("oauthGrant").set({ revokedAt: now }).where("revokedAt", "is", null);
  if (where.id !== undefined) query = query.where("id", "=", where.id);
  if (where.sessionIds !== undefined) query = query.where("sessionId", "in", where.sessionIds);
  if (where.userId !== undefined) query = query.where("userId", "=", where.userId);
  if (where.clientId !== undefined) query = query.where("clientId", "=", where.clientId);
  return query.returningAll().execute();
}

/** How many token families begun by a session are still live (not revoked). */
export async function countLiveOAuthGrantsOfSession(db: Db, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom("oauthGrant")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("sessionId", "=", sessionId)
    .where("revokedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertOAuthToken(
  db: Db,
  row: { id: string; grantId: string; kind: "access" | "refresh"; expiresAt: number; createdAt: number },
) {
  return db
    .insertInto("oauthToken")
    .values({ ...row, usedAt: null })
    .execute();
}

/** A token with its family, if the token is known (expired, used or revoked ones included). */
export function findOAuthTokenWithGrant(db: Db, id: string) {
  return db
    .selectFrom("oauthToken")
    .innerJoin("oauthGrant", "oauthGrant.id", "oauthToken.grantId")
    .select([
      "oauthToken.id as tokenId",
      "oauthToken.kind",
      "oauthToken.expiresAt as tokenExpiresAt",
      "oauthToken.usedAt",
      "oauthToken.createdAt as issuedAt",
      "oauthGrant.id as grantId",
      "oauthGrant.clientId",
      "oauthGrant.userId",
      "oauthGrant.sessionId",
      "oauthGrant.scope",
      "oauthGrant.authTime",
      "oauthGrant.expiresAt as grantExpiresAt",
      "oauthGrant.revokedAt",
    ])
    .where("oauthToken.id", "=", id)
    .executeTakeFirst();
}

/** Mark a refresh token rotated, only if it was not before (one winner among concurrent refreshes). */
export async function claimRefreshToken(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("oauthToken")
    .set({ usedAt: now })
    .where("id", "=", id)
    .where("kind", "=", "refresh")
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revoke one access token (RFC 7009 on an access token): it expires now. */
export function expireOAuthToken(db: Db, id: string, now: number) {
  return db.updateTable("oauthToken").set({ expiresAt: now }).where("id", "=", id).execute();
}

export function findOAuthConsent(db: Db, userId: string, clientId: string) {
  return db
    .selectFrom("oauthConsent")
    .selectAll()
    .where("userId", "=", userId)
    .where("clientId", "=", clientId)
    .executeTakeFirst();
}

export async function upsertOAuthConsent(
  db: Db,
  row: { id: string; userId: string; clientId: string; scope: string },
  now: number,
) {
  await db
    .insertInto("oauthConsent")
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(["userId", "clientId"]).doUpdateSet({ scope: row.scope, updatedAt: now }))
    .execute();
}

/** Forget every consent `userId` gave (the account claim: they were the squatter's); how many went. */
export async function deleteOAuthConsentsOfUser(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("oauthConsent").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The organizations a user is a member of, with the member's role (the `groups` claim). */
export function listOrganizationRolesOfUser(db: Db, userId: string) {
  return db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["organization.slug", "member.role"])
    .where("member.userId", "=", userId)
    .orderBy("organization.slug", "asc")
    .execute();
}
