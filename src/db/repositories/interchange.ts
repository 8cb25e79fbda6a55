import type { AccountRow, Db, TwoFactorRow, UserRow } from "../schema.ts";
import { CREDENTIAL_PROVIDER_ID } from "./accounts.ts";

// The reads of `authd export` (issue 33): users a page at a time in id order, and what belongs to a page.

export function listUsersAfter(db: Db, afterId: string, limit: number): Promise<UserRow[]> {
  return db.selectFrom("user").selectAll().where("id", ">", afterId).orderBy("id").limit(limit).execute();
}

export function listAccountsOfUsers(db: Db, userIds: string[]): Promise<AccountRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("account")
    .selectAll()
    .where("userId", "in", userIds)
    .orderBy("providerId")
    .orderBy("accountId")
    .execute();
}

export function listTwoFactorsOfUsers(db: Db, userIds: string[]): Promise<TwoFactorRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("twoFactor").selectAll().where("userId", "in", userIds).execute();
}

export interface MembershipRow {
  userId: string;
  role: string;
  id: string;
  slug: string;
  name: string;
}

export function listMembershipsOfUsers(db: Db, userIds: string[]): Promise<MembershipRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["member.userId", "member.role", "organization.id", "organization.slug", "organization.name"])
    .where("member.userId", "in", userIds)
    .orderBy("organization.id")
    .execute();
}

export { CREDENTIAL_PROVIDER_ID };
