import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { isUniqueViolationOn } from "../../db/errors.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import {
  deleteTeamMembershipsInOrganization,
  findTeamById,
  findTeamMember,
  insertTeamMember,
} from "../../db/repositories/teams.ts";
import { findUserById } from "../../db/repositories/users.ts";
import type { MemberRow, Trx } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { inTransaction } from "../../platform/transaction.ts";
import { splitRoles } from "../access-control.ts";
import { clearActiveOrganization } from "../sessions/sessions.ts";
import { type Actor, recordOrganizationEvent, requireMembership, targetOrganizationId } from "./actor.ts";
import {
  actsAsCreator,
  authorityAllows,
  creatorRole,
  hasOrganizationPermission,
  holdsCreatorRole,
  joinRoles,
  type OrganizationAuthority,
  type PermissionRequest,
} from "./permissions.ts";
import { toMemberWire, toMemberWithUserWire } from "./wire.ts";

/** Runs `work` in a transaction that holds the organization's lock, so membership rules see a stable roster. */
export function withOrganizationLock<T>(
  ctx: AuthContext,
  organizationId: string,
  work: (trx: Trx) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    await orgs.lockOrganization(trx, ctx.database.dialect, organizationId);
    return work(trx);
  });
}

async function countOwners(ctx: AuthContext, trx: Trx, organizationId: string): Promise<number> {
  return (await orgs.listMemberRoles(trx, organizationId)).filter((m) => holdsCreatorRole(ctx, m.role)).length;
}

async function memberWithUser(ctx: AuthContext, row: MemberRow) {
  const user = await findUserById(ctx.db, row.userId);
  return toMemberWithUserWire(ctx, {
    ...row,
    user: { id: row.userId, name: user?.name ?? "", email: user?.email ?? "", image: user?.image ?? null },
  });
}

export interface ListMembersQuery extends Omit<orgs.ListMembersOptions, "limit" | "offset"> {
  organizationId?: string;
  limit?: number;
  offset?: number;
}

export async function listMembers(ctx: AuthContext, actor: Actor, query: ListMembersQuery) {
  const organizationId = targetOrganizationId(actor, query.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  await requireMembership(ctx, organizationId, actor.user.id, "NOT_A_MEMBER_OF_ORGANIZATION");
  const page = await orgs.listMembersWithUsers(ctx.db, organizationId, {
    ...query,
    limit: Math.min(query.limit ?? ctx.config.organization.membershipLimit, ctx.config.organization.membershipLimit),
    offset: query.offset ?? 0,
  });
  return { members: page.members.map((m) => toMemberWithUserWire(ctx, m)), total: page.total };
}

export async function getActiveMember(ctx: AuthContext, actor: Actor) {
  const organizationId = actor.session?.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await orgs.findMemberWithUser(ctx.db, organizationId, actor.user.id);
  if (!member) throw new AuthError("MEMBER_NOT_FOUND");
  return toMemberWithUserWire(ctx, member);
}

export async function getActiveMemberRole(
  ctx: AuthContext,
  actor: Actor,
  query: { userId?: string; organizationId?: string },
) {
  const organizationId = targetOrganizationId(actor, query.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const own = await requireMembership(ctx, organizationId, actor.user.id, "NOT_A_MEMBER_OF_ORGANIZATION");
  const member =
    !query.userId || query.userId === actor.user.id ? own : await orgs.findMember(ctx.db, organizationId, query.userId);
  if (!member) throw new AuthError("MEMBER_NOT_FOUND");
  return { role: member.role };
}

export async function checkPermission(
  ctx: AuthContext,
  actor: Actor,
  organizationId: string | undefined,
  request: PermissionRequest,
) {
  const id = targetOrganizationId(actor, organizationId);
  if (!id) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await orgs.findMember(ctx.db, id, actor.user.id);
  if (!member) throw new AuthError("USER_IS_NOT_A_MEMBER");
  return { error: null, success: hasOrganizationPermission(ctx, member.role, request) };
}

/**
 * Changes a member's roles. Only holders of the creator role may touch a creator or hand the creator role
 * out, and the last creator cannot give it up. Re-reading both members under the organization lock is what
 * keeps two owners demoting each other at once from leaving the organization without one.
 */
export async function updateMemberRole(
  ctx: AuthContext,
  actor: Actor,
  input: { memberId: string; role: string | string[]; organizationId?: string },
) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const updated = await withOrganizationLock(ctx, organizationId, async (trx) => {
    const self = await orgs.findMember(trx, organizationId, actor.user.id);
    if (!self) throw new AuthError("MEMBER_NOT_FOUND");
    const authority = { kind: "member", role: self.role } as const;
    return setMemberRoleLocked(ctx, trx, { organizationId, authority, actor }, input.memberId, joinRoles(input.role));
  });
  return toMemberWire(ctx, updated);
}

/** Who changes an organization's roster, and as what, inside the organization's lock. */
export interface RosterChange {
  organizationId: string;
  authority: OrganizationAuthority;
  actor: Pick<Actor, "source">;
}

/** The role change itself, under the organization's lock (withOrganizationLock): the rules, the row, the event. */
export async function setMemberRoleLocked(
  ctx: AuthContext,
  trx: Trx,
  change: RosterChange,
  memberId: string,
  newRole: string,
): Promise<MemberRow> {
  const { organizationId, authority } = change;
  const target = await orgs.findMemberById(trx, memberId);
  if (!target || target.organizationId !== organizationId) throw new AuthError("MEMBER_NOT_FOUND");
  const updaterIsCreator = actsAsCreator(ctx, authority);
  const targetIsCreator = holdsCreatorRole(ctx, target.role);
  const settingCreator = splitRoles(newRole).includes(creatorRole(ctx));
  if ((targetIsCreator || settingCreator) && !updaterIsCreator) throw new AuthError("NOT_ALLOWED_TO_UPDATE_MEMBER");
  if (!updaterIsCreator && !authorityAllows(ctx, authority, { member: ["update"] }))
    throw new AuthError("NOT_ALLOWED_TO_UPDATE_MEMBER");
  if (targetIsCreator && !settingCreator && (await countOwners(ctx, trx, organizationId)) <= 1)
    throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
  const row = await orgs.updateMemberRole(trx, target.id, newRole);
  if (!row) throw new AuthError("MEMBER_NOT_FOUND");
  const changed = { type: "member_role_changed", outcome: "success", memberId: row.id, role: newRole } as const;
  await recordOrganizationEvent(ctx, trx, change.actor, organizationId, changed, row.userId);
  return row;
}

/** Server call: adds a user to an organization directly, within the membership limit. */
export async function addMember(
  ctx: AuthContext,
  actor: Actor | null,
  input: { userId: string; role: string | string[]; organizationId?: string; teamId?: string },
) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (input.teamId && !ctx.config.organization.teams.enabled) throw new AuthError("TEAMS_NOT_ENABLED");
  const user = await findUserById(ctx.db, input.userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  const now = ctx.now();
  try {
    const member = await withOrganizationLock(ctx, organizationId, async (trx) => {
      if (!(await orgs.findOrganizationById(trx, organizationId))) throw new AuthError("ORGANIZATION_NOT_FOUND");
      if (await orgs.findMember(trx, organizationId, user.id)) throw new AuthError("ALREADY_A_MEMBER");
      if (input.teamId && !(await findTeamById(trx, input.teamId, organizationId)))
        throw new AuthError("TEAM_NOT_FOUND");
      if ((await orgs.countMembers(trx, organizationId)) >= ctx.config.organization.membershipLimit)
        throw new AuthError("MEMBERSHIP_LIMIT_REACHED");
      const row = await orgs.insertMember(trx, {
        id: generateId(),
        organizationId,
        userId: user.id,
        role: joinRoles(input.role),
        teamId: input.teamId ?? null,
        createdAt: now,
      });
      if (input.teamId && !(await findTeamMember(trx, input.teamId, user.id)))
        await insertTeamMember(trx, { id: generateId(), teamId: input.teamId, userId: user.id, createdAt: now });
      const added = { type: "member_added", outcome: "success", memberId: row.id, role: row.role } as const;
      await recordOrganizationEvent(ctx, trx, actor, organizationId, added, user.id);
      return row;
    });
    return toMemberWire(ctx, member);
  } catch (error) {
    if (isUniqueViolationOn(error, "userId") || isUniqueViolationOn(error, "member"))
      throw new AuthError("ALREADY_A_MEMBER");
    throw error;
  }
}

async function dropMembership(ctx: AuthContext, trx: Trx, member: MemberRow): Promise<void> {
  await orgs.deleteMember(trx, member.id);
  await deleteTeamMembershipsInOrganization(trx, member.organizationId, member.userId);
  await clearActiveOrganization(ctx, trx, member.organizationId, member.userId);
}

function forgetActiveOrganization(actor: Actor, organizationId: string): void {
  if (actor.session?.activeOrganizationId !== organizationId) return;
  actor.session = { ...actor.session, activeOrganizationId: null, activeTeamId: null };
  actor.sessionChanged = true;
}

/** Removes a member by id or email. The only owner cannot be removed, and only owners remove owners. */
export async function removeMember(
  ctx: AuthContext,
  actor: Actor,
  input: { memberIdOrEmail: string; organizationId?: string },
) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const removed = await withOrganizationLock(ctx, organizationId, async (trx) => {
    const self = await orgs.findMember(trx, organizationId, actor.user.id);
    if (!self) throw new AuthError("MEMBER_NOT_FOUND");
    const byEmail = input.memberIdOrEmail.includes("@");
    const target = byEmail
      ? await orgs.findMemberByEmail(trx, organizationId, input.memberIdOrEmail)
      : await orgs.findMemberById(trx, input.memberIdOrEmail);
    const authority = { kind: "member", role: self.role } as const;
    return removeMemberLocked(ctx, trx, { organizationId, authority, actor }, target);
  });
  if (removed.userId === actor.user.id) forgetActiveOrganization(actor, organizationId);
  return { member: await memberWithUser(ctx, removed) };
}

/** The removal itself, under the organization's lock: the rules, the rows (teams, active sessions), the event. */
export async function removeMemberLocked(
  ctx: AuthContext,
  trx: Trx,
  change: RosterChange,
  target: MemberRow | undefined,
): Promise<MemberRow> {
  const { organizationId, authority } = change;
  if (!target || target.organizationId !== organizationId) throw new AuthError("MEMBER_NOT_FOUND");
  if (holdsCreatorRole(ctx, target.role)) {
    if (!actsAsCreator(ctx, authority) || (await countOwners(ctx, trx, organizationId)) <= 1)
      throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
  }
  if (!authorityAllows(ctx, authority, { member: ["delete"] })) throw new AuthError("NOT_ALLOWED_TO_DELETE_MEMBER");
  await dropMembership(ctx, trx, target);
  const event = { type: "member_removed", outcome: "success", memberId: target.id } as const;
  await recordOrganizationEvent(ctx, trx, change.actor, organizationId, event, target.userId);
  return target;
}

/** The caller leaves an organization; the only owner cannot. */
export async function leaveOrganization(ctx: AuthContext, actor: Actor, organizationId: string) {
  const left = await withOrganizationLock(ctx, organizationId, async (trx) => {
    const self = await orgs.findMember(trx, organizationId, actor.user.id);
    if (!self) throw new AuthError("MEMBER_NOT_FOUND");
    if (holdsCreatorRole(ctx, self.role) && (await countOwners(ctx, trx, organizationId)) <= 1)
      throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
    await dropMembership(ctx, trx, self);
    const event = { type: "member_removed", outcome: "success", memberId: self.id } as const;
    await recordOrganizationEvent(ctx, trx, actor, organizationId, event, self.userId);
    return self;
  });
  forgetActiveOrganization(actor, organizationId);
  return memberWithUser(ctx, left);
}
