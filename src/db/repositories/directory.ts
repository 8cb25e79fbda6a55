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

/** Which API keys an operator lists: one user's or everyone's, matching a text, enabled or not, expired or not. */
export interface ApiKeyQuery {
  userId?: string;
  /** Found literally, ignoring case, in the key's name, prefix or start, or in its owner's email. */
  search?: string;
  enabled?: boolean;
  /** Expired at `now` (true), or without an expiry or one still ahead (false). */
  expired?: boolean;
  now?: number;
}

function whereApiKeysMatch(db: Db, query: ApiKeyQuery) {
  let select = db.selectFrom("apikey").innerJoin("user", "user.id", "apikey.userId");
  if (query.userId) select = select.where("apikey.userId", "=", query.userId);
  if (query.search)
    select = select.where(
      anyColumnMatches(["apikey.name", "apikey.prefix", "apikey.start", "user.email"], query.search),
    );
  if (query.enabled !== undefined) select = select.where("apikey.enabled", "=", query.enabled);
  if (query.expired !== undefined) {
    const now = query.now ?? Date.now();
    select = query.expired
      ? select.where("apikey.expiresAt", "<=", now)
      : select.where((eb) => eb.or([eb("apikey.expiresAt", "is", null), eb("apikey.expiresAt", ">", now)]));
  }
  return select;
}

/** A page of API keys of every user (or one), newest first, with the owner's email and ban. */
export function listApiKeysWithOwner(
  db: Db,
  query: ApiKeyQuery & { limit?: number; offset?: number } = {},
): Promise<ApiKeyWithEmailRow[]> {
  return whereApiKeysMatch(db, query)
    .selectAll("apikey")
    .select(["user.email as userEmail", "user.banned as ownerBanned", "user.banExpires as ownerBanExpires"])
    .orderBy("apikey.createdAt", "desc")
    .orderBy("apikey.id", "asc")
    .limit(query.limit ?? 50)
    .offset(query.offset ?? 0)
    .execute();
}

export async function countApiKeys(db: Db, query: ApiKeyQuery = {}): Promise<number> {
  const row = await whereApiKeysMatch(db, query)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whose key this is (operators revoke by key id alone). */
export async function findApiKeyOwnerId(db: Db, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom("apikey").select("userId").where("id", "=", keyId).executeTakeFirst();
  return row?.userId;
}
