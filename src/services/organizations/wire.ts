import type { AuthContext } from "../../context.ts";
import { readJSONObject } from "../../db/json-column.ts";
import type { MemberWithUser as MemberWithUserRow } from "../../db/repositories/organizations.ts";
import type { InvitationRow, MemberRow, OrganizationRow, TeamMemberRow, TeamRow } from "../../db/schema.ts";
import { iso, isoDate } from "../../wire/common.ts";
import type { Invitation, Member, MemberWithUser, Organization, Team, TeamMember } from "../../wire/organization.ts";

// The one place organization rows become wire JSON (src/wire/organization.ts: Better Auth's organization
// plugin shapes, dates as ISO strings, metadata as an object).

export function toOrganizationWire(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo: row.logo ?? null,
    metadata: readJSONObject(row.metadata),
    createdAt: isoDate(row.createdAt),
  };
}

export function toMemberWire(ctx: AuthContext, row: MemberRow): Member {
  const wire: Member = {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: isoDate(row.createdAt),
  };
  if (ctx.config.organization.teams.enabled) wire.teamId = row.teamId ?? null;
  return wire;
}

export function toMemberWithUserWire(ctx: AuthContext, row: MemberWithUserRow): MemberWithUser {
  return {
    ...toMemberWire(ctx, row),
    user: { id: row.user.id, name: row.user.name, email: row.user.email, image: row.user.image ?? null },
  };
}

export function toInvitationWire(ctx: AuthContext, row: InvitationRow): Invitation {
  const wire: Invitation = {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    status: row.status,
    inviterId: row.inviterId,
    expiresAt: isoDate(row.expiresAt),
  };
  // Better Auth stores the invited teams comma-joined, so an invitation without a team carries "".
  if (ctx.config.organization.teams.enabled) wire.teamId = row.teamId ?? "";
  return wire;
}

export function toTeamWire(row: TeamRow): Team {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    createdAt: isoDate(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toTeamMemberWire(row: TeamMemberRow): TeamMember {
  return { id: row.id, teamId: row.teamId, userId: row.userId, createdAt: isoDate(row.createdAt) };
}
