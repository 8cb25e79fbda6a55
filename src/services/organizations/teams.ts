import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { findMember } from "../../db/repositories/organizations.ts";
import * as teams from "../../db/repositories/teams.ts";
import { AuthError } from "../../errors.ts";
import { inTransaction } from "../../platform/transaction.ts";
import { clearActiveTeam } from "../sessions/sessions.ts";
import { type Actor, changeActiveSession, requireMembership, targetOrganizationId } from "./actor.ts";
import { hasOrganizationPermission } from "./permissions.ts";
import { toTeamMemberWire, toTeamWire } from "./wire.ts";

/** Creates a team. A server call (no actor) skips the membership and permission checks. */
export async function createTeam(
  ctx: AuthContext,
  actor: Actor | null,
  input: { name: string; organizationId?: string },
) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (actor) {
    const member = await requireMembership(ctx, organizationId, actor.user.id, "NOT_ALLOWED_TO_INVITE");
    if (!hasOrganizationPermission(ctx, member.role, { team: ["create"] }))
      throw new AuthError("NOT_ALLOWED_TO_CREATE_TEAMS");
  }
  const maximum = ctx.config.organization.teams.maximumTeams;
  if (maximum !== undefined && (await teams.countTeamsOfOrganization(ctx.db, organizationId)) >= maximum)
    throw new AuthError("TEAM_LIMIT_REACHED");
  const now = ctx.now();
  const team = await teams.insertTeam(ctx.db, {
    id: generateId(),
    name: input.name,
    organizationId,
    createdAt: now,
    updatedAt: now,
  });
  return toTeamWire(team);
}

export async function listTeams(ctx: AuthContext, actor: Actor, organizationId: string | undefined) {
  const id = targetOrganizationId(actor, organizationId);
  if (!id) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  await requireMembership(ctx, id, actor.user.id, "NOT_ALLOWED_TO_ACCESS_ORGANIZATION");
  return (await teams.listTeamsOfOrganization(ctx.db, id)).map(toTeamWire);
}

export async function updateTeam(
  ctx: AuthContext,
  actor: Actor,
  input: { teamId: string; data: { name?: string; organizationId?: string } },
) {
  const organizationId = targetOrganizationId(actor, input.data.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await requireMembership(ctx, organizationId, actor.user.id, "NOT_ALLOWED_TO_UPDATE_TEAM");
  if (!hasOrganizationPermission(ctx, member.role, { team: ["update"] }))
    throw new AuthError("NOT_ALLOWED_TO_UPDATE_TEAM");
  const team = await teams.findTeamById(ctx.db, input.teamId, organizationId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  const updated = await teams.updateTeam(ctx.db, team.id, {
    ...(input.data.name !== undefined ? { name: input.data.name } : {}),
    updatedAt: ctx.now(),
  });
  if (!updated) throw new AuthError("TEAM_NOT_FOUND");
  return toTeamWire(updated);
}

/** Removes a team; not the actor's own active team, and not the last one unless configured. */
export async function removeTeam(
  ctx: AuthContext,
  actor: Actor | null,
  input: { teamId: string; organizationId?: string },
) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (actor) {
    const member = await findMember(ctx.db, organizationId, actor.user.id);
    if (!member || actor.session?.activeTeamId === input.teamId) throw new AuthError("NOT_ALLOWED_TO_DELETE_TEAM");
    if (!hasOrganizationPermission(ctx, member.role, { team: ["delete"] }))
      throw new AuthError("NOT_ALLOWED_TO_DELETE_TEAMS");
  }
  const team = await teams.findTeamById(ctx.db, input.teamId, organizationId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (
    !ctx.config.organization.teams.allowRemovingAllTeams &&
    (await teams.countTeamsOfOrganization(ctx.db, organizationId)) <= 1
  ) {
    throw new AuthError("UNABLE_TO_REMOVE_LAST_TEAM");
  }
  await inTransaction(ctx.db, async (trx) => {
    await clearActiveTeam(ctx, trx, team.id);
    await teams.deleteTeam(trx, team.id);
  });
  return { message: "Team removed successfully." };
}

export async function setActiveTeam(ctx: AuthContext, actor: Actor, teamId: string | null | undefined) {
  if (teamId === null || (teamId === undefined && !actor.session?.activeTeamId)) {
    if (actor.session?.activeTeamId) await changeActiveSession(ctx, actor, { activeTeamId: null });
    return null;
  }
  const id = teamId ?? (actor.session?.activeTeamId as string);
  const team = await teams.findTeamById(ctx.db, id);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (!(await teams.findTeamMember(ctx.db, team.id, actor.user.id)))
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_TEAM");
  await changeActiveSession(ctx, actor, { activeTeamId: team.id });
  return toTeamWire(team);
}

export async function listUserTeams(ctx: AuthContext, actor: Actor) {
  return (await teams.listTeamsOfUser(ctx.db, actor.user.id)).map(toTeamWire);
}

export async function listTeamMembers(ctx: AuthContext, actor: Actor, teamId: string | undefined) {
  const id = teamId || actor.session?.activeTeamId;
  if (!id) throw new AuthError("NO_ACTIVE_TEAM");
  if (!(await teams.findTeamMember(ctx.db, id, actor.user.id))) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_TEAM");
  return (await teams.listTeamMembers(ctx.db, id)).map(toTeamMemberWire);
}

/** Resolves the active organization, the actor's right to change team rosters, and the target's membership. */
async function rosterChange(
  ctx: AuthContext,
  actor: Actor,
  input: { teamId: string; userId: string },
  action: "update" | "delete",
) {
  const organizationId = actor.session?.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const self = await requireMembership(ctx, organizationId, actor.user.id, "USER_IS_NOT_A_MEMBER");
  if (!hasOrganizationPermission(ctx, self.role, { member: [action] })) {
    throw new AuthError(
      action === "update" ? "NOT_ALLOWED_TO_CREATE_TEAM_MEMBER" : "NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER",
    );
  }
  await requireMembership(ctx, organizationId, input.userId, "USER_IS_NOT_A_MEMBER");
  if (!(await teams.findTeamById(ctx.db, input.teamId, organizationId))) throw new AuthError("TEAM_NOT_FOUND");
  return organizationId;
}

export async function addTeamMember(ctx: AuthContext, actor: Actor, input: { teamId: string; userId: string }) {
  await rosterChange(ctx, actor, input, "update");
  const existing = await teams.findTeamMember(ctx.db, input.teamId, input.userId);
  if (existing) return toTeamMemberWire(existing);
  const maximum = ctx.config.organization.teams.maximumMembersPerTeam;
  if (maximum !== undefined && (await teams.countTeamMembers(ctx.db, input.teamId)) >= maximum)
    throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  return toTeamMemberWire(
    await teams.insertTeamMember(ctx.db, {
      id: generateId(),
      teamId: input.teamId,
      userId: input.userId,
      createdAt: ctx.now(),
    }),
  );
}

export async function removeTeamMember(ctx: AuthContext, actor: Actor, input: { teamId: string; userId: string }) {
  await rosterChange(ctx, actor, input, "delete");
  await teams.deleteTeamMember(ctx.db, input.teamId, input.userId);
  return { message: "Team member removed successfully." };
}
