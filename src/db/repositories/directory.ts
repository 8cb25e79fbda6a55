import { anyColumnMatches } from "../like.ts";
import type { ApiKeyRow, Db, InvitationRow, OrganizationRow, TeamRow, UserRow } from "../schema.ts";

// Read-only listings for operators (the CLI and the terminal UI): pages, counts and joins that the
// HTTP routes do not need. Writes stay in the services that own their rules.

export interface PageQuery {
  search?: string;
  limit?: number;
  offset?: number;
}

export type OrganizationListRow = OrganizationRow & { memberCount: number };

function whereOrganizationMatches(db: Db, search: string | undefined) {
  const query = db.selectFrom("organization");
  return search ? query.where(anyColumnMatches(["name", "slug"], search)) : query;
}

export async function listOrganizations(db: Db, query: PageQuery = {}): Promise<OrganizationListRow[]> {
  const rows = await whereOrganizationMatches(db, query.search)
    .selectAll("organization")
    .select((eb) =>
      eb
        .selectFrom("member")
        .whereRef("member.organizationId", "=", "organization.id")
        .select((m) => m.fn.countAll<number | string>().as("c"))
        .as("memberCount"),
    )
    .orderBy("createdAt", "desc")
    .orderBy("id", "asc")
    .limit(query.limit ?? 50)
    .offset(query.offset ?? 0)
    .execute();
  return rows.map((row) => ({ ...row, memberCount: Number(row.memberCount ?? 0) }));
}

export async function countOrganizations(db: Db, query: Pick<PageQuery, "search"> = {}): Promise<number> {
  const row = await whereOrganizationMatches(db, query.search)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findOrganizationByIdOrSlug(db: Db, idOrSlug: string): Promise<OrganizationRow | undefined> {
  return db
    .selectFrom("organization")
    .selectAll()
    .where((eb) => eb.or([eb("id", "=", idOrSlug), eb("slug", "=", idOrSlug)]))
    .executeTakeFirst();
}

export interface MemberListRow {
  id: string;
  userId: string;
  role: string;
  createdAt: number;
  email: string;
  name: string;
}

export function listOrganizationMembers(db: Db, organizationId: string): Promise<MemberListRow[]> {
  return db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select(["member.id", "member.userId", "member.role", "member.createdAt", "user.email", "user.name"])
    .where("member.organizationId", "=", organizationId)
    .orderBy("member.createdAt", "asc")
    .execute();
}

export function listOrganizationInvitations(db: Db, organizationId: string): Promise<InvitationRow[]> {
  return db
    .selectFrom("invitation")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "desc")
    .execute();
}

export type TeamListRow = TeamRow & { memberCount: number };

export async function listOrganizationTeams(db: Db, organizationId: string): Promise<TeamListRow[]> {
  const rows = await db
    .selectFrom("team")
    .selectAll("team")
    .select((eb) =>
      eb
        .selectFrom("teamMember")
        .whereRef("teamMember.teamId", "=", "team.id")
        .select((m) => m.fn.countAll<number | string>().as("c"))
        .as("memberCount"),
    )
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "asc")
    .execute();
  return rows.map((row) => ({ ...row, memberCount: Number(row.memberCount ?? 0) }));
}

export interface MembershipRow {
  organizationId: string;
  name: string;
  slug: string;
  role: string;
}

export function listUserMemberships(db: Db, userId: string): Promise<MembershipRow[]> {
  return db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["member.organizationId", "organization.name", "organization.slug", "member.role"])
    .where("member.userId", "=", userId)
    .orderBy("organization.name", "asc")
    .execute();
}

export type ApiKeyWithEmailRow = ApiKeyRow & {
  userEmail: string;
  ownerBanned: UserRow["banned"];
  ownerBanExpires: UserRow["banExpires"];
};

/** A page of API keys of every user (or one), newest first, with the owner's email and ban. */
export function listApiKeysWithOwner(
  db: Db,
  query: { userId?: string; limit?: number; offset?: number } = {},
): Promise<ApiKeyWithEmailRow[]> {
  let select = db
    .selectFrom("apikey")
    .innerJoin("user", "user.id", "apikey.userId")
    .selectAll("apikey")
    .select(["user.email as userEmail", "user.banned as ownerBanned", "user.banExpires as ownerBanExpires"]);
  if (query.userId) select = select.where("apikey.userId", "=", query.userId);
  return select
    .orderBy("apikey.createdAt", "desc")
    .orderBy("apikey.id", "asc")
    .limit(query.limit ?? 50)
    .offset(query.offset ?? 0)
    .execute();
}

export async function countApiKeys(db: Db, query: { userId?: string } = {}): Promise<number> {
  let select = db.selectFrom("apikey");
  if (query.userId) select = select.where("userId", "=", query.userId);
  const row = await select.select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whose key this is (operators revoke by key id alone). */
export async function findApiKeyOwnerId(db: Db, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom("apikey").select("userId").where("id", "=", keyId).executeTakeFirst();
  return row?.userId;
}
