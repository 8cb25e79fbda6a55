import { sql } from "kysely";
import { columnMatches } from "../like.ts";
import type { Db, MemberRow, OrganizationRow, Trx, UserRow } from "../schema.ts";

export type NewOrganizationRow = OrganizationRow;
export type NewMemberRow = MemberRow;
export type MemberUser = Pick<UserRow, "id" | "name" | "email" | "image">;
export type MemberWithUser = MemberRow & { user: MemberUser };

export function findOrganizationById(db: Db, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom("organization").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findOrganizationBySlug(db: Db, slug: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom("organization").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/**
 * Serialise writers of one organization: on Postgres the row lock is held until the transaction ends.
 * SQLite transactions already run one at a time (BEGIN IMMEDIATE on a single connection).
 */
export async function lockOrganization(trx: Trx, dialect: "sqlite" | "postgres", id: string): Promise<boolean> {
  if (dialect === "sqlite") return (await findOrganizationById(trx, id)) !== undefined;
  const row = await sql<{ id: string }>`select "id" from "organization" where "id" = ${id} for update`.execute(trx);
  return row.rows.length > 0;
}

export function insertOrganization(db: Db, row: NewOrganizationRow): Promise<OrganizationRow> {
  return db.insertInto("organization").values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateOrganization(
  db: Db,
  id: string,
  changes: Partial<Omit<OrganizationRow, "id">>,
): Promise<OrganizationRow | undefined> {
  return db.updateTable("organization").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

/** Removes the organization with its members and invitations (teams and team members go by cascade). */
export async function deleteOrganizationCascade(db: Db, id: string): Promise<void> {
  await db.deleteFrom("member").where("organizationId", "=", id).execute();
  await db.deleteFrom("invitation").where("organizationId", "=", id).execute();
  await db.deleteFrom("organization").where("id", "=", id).execute();
}

export function listOrganizationsOfUser(db: Db, userId: string): Promise<OrganizationRow[]> {
  return db
    .selectFrom("organization")
    .innerJoin("member", "member.organizationId", "organization.id")
    .selectAll("organization")
    .where("member.userId", "=", userId)
    .orderBy("organization.createdAt", "asc")
    .execute();
}

export async function countOrganizationsOfUser(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("member")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findMember(db: Db, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom("member")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

export function findMemberById(db: Db, id: string): Promise<MemberRow | undefined> {
  return db.selectFrom("member").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findMemberByEmail(db: Db, organizationId: string, email: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .selectAll("member")
    .where("member.organizationId", "=", organizationId)
    .where("user.email", "=", email.toLowerCase())
    .executeTakeFirst();
}

export function insertMember(db: Db, row: NewMemberRow): Promise<MemberRow> {
  return db.insertInto("member").values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateMemberRole(db: Db, id: string, role: string): Promise<MemberRow | undefined> {
  return db.updateTable("member").set({ role }).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteMember(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("member").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countMembers(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("member")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listMemberRoles(db: Db, organizationId: string): Promise<Pick<MemberRow, "id" | "role">[]> {
  return db.selectFrom("member").select(["id", "role"]).where("organizationId", "=", organizationId).execute();
}

export type MemberSortField = "id" | "userId" | "role" | "createdAt" | "teamId";
export type MemberFilterOperator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "contains";

export interface ListMembersOptions {
  limit: number;
  offset: number;
  sortBy?: MemberSortField;
  sortDirection?: "asc" | "desc";
  filter?: { field: MemberSortField; operator: MemberFilterOperator; value: string | number | boolean };
}

const OPERATORS = { eq: "=", ne: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

/** One page of members with their users, and the total matching the filter. */
export async function listMembersWithUsers(
  db: Db,
  organizationId: string,
  options: ListMembersOptions,
): Promise<{ members: MemberWithUser[]; total: number }> {
  let base = db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .where("member.organizationId", "=", organizationId);
  if (options.filter) {
    const { field, operator, value } = options.filter;
    base =
      operator === "contains"
        ? base.where(columnMatches(`member.${field}`, String(value)))
        : base.where(`member.${field}`, OPERATORS[operator], value as string);
  }
  const countRow = await base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll("member")
    .select(["user.name as u_name", "user.email as u_email", "user.image as u_image"])
    .orderBy(`member.${options.sortBy ?? "createdAt"}`, options.sortDirection ?? "asc")
    .orderBy("member.id", "asc")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const members = rows.map(({ u_name, u_email, u_image, ...member }) => ({
    ...member,
    user: { id: member.userId, name: u_name, email: u_email, image: u_image },
  }));
  return { members, total: Number(countRow.n) };
}

export async function findMemberWithUser(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MemberWithUser | undefined> {
  const page = await listMembersWithUsers(db, organizationId, {
    limit: 1,
    offset: 0,
    filter: { field: "userId", operator: "eq", value: userId },
  });
  return page.members[0];
}
