import type { Db, InvitationRow, InvitationStatus } from "../schema.ts";

export function findInvitationById(db: Db, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("invitation").selectAll().where("id", "=", id).executeTakeFirst();
}

export function insertInvitation(db: Db, row: InvitationRow): Promise<InvitationRow> {
  return db.insertInto("invitation").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Pending and unexpired invitations of an organization, optionally for one (lower-cased) email. */
export function listPendingInvitations(
  db: Db,
  organizationId: string,
  now: number,
  email?: string,
): Promise<InvitationRow[]> {
  let query = db
    .selectFrom("invitation")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .where("expiresAt", ">", now);
  if (email !== undefined) query = query.where("email", "=", email.toLowerCase());
  return query.orderBy("createdAt", "asc").execute();
}

export function listInvitationsOfOrganization(db: Db, organizationId: string): Promise<InvitationRow[]> {
  return db
    .selectFrom("invitation")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "asc")
    .execute();
}

export function listInvitationsForEmail(db: Db, email: string): Promise<InvitationRow[]> {
  return db
    .selectFrom("invitation")
    .selectAll()
    .where("email", "=", email.toLowerCase())
    .orderBy("createdAt", "asc")
    .execute();
}

/**
 * Moves a pending, unexpired invitation to a final status. The WHERE clause makes the transition atomic:
 * of several concurrent callers only one gets the row back; the others get undefined.
 */
export function settlePendingInvitation(
  db: Db,
  id: string,
  status: Exclude<InvitationStatus, "pending">,
  now: number,
): Promise<InvitationRow | undefined> {
  return db
    .updateTable("invitation")
    .set({ status })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("expiresAt", ">", now)
    .returningAll()
    .executeTakeFirst();
}

/** Cancels a pending invitation whatever its expiry (an expired one is not pending anyway). */
export function cancelInvitation(db: Db, id: string): Promise<InvitationRow | undefined> {
  return db
    .updateTable("invitation")
    .set({ status: "canceled" })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

/** Cancels an invitation still pending, expired or not; undefined when it was settled meanwhile. */
export function cancelPendingInvitation(db: Db, id: string): Promise<InvitationRow | undefined> {
  return db
    .updateTable("invitation")
    .set({ status: "canceled" })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
}
