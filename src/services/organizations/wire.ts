import type { AuthContext } from "../../context.ts";
import type { MemberWithUser } from "../../db/repositories/organizations.ts";
import type { InvitationRow, MemberRow, OrganizationRow, TeamMemberRow, TeamRow } from "../../db/schema.ts";
import { iso } from "../users.ts";

// The one place organization rows become wire JSON (Better Auth's organization plugin shapes, dates as
// ISO strings, metadata as an object).

export function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function toOrganizationWire(row: OrganizationRow) {
  return { id: row.id, name: row.name, slug: row.slug, logo: row.logo ?? null, metadata: parseMetadata(row.metadata), createdAt: iso(row.createdAt) };
}

export function toMemberWire(ctx: AuthContext, row: MemberRow) {
  const wire: Record<string, unknown> = { id: row.id, organizationId: row.organizationId, userId: row.userId, role: row.role, createdAt: iso(row.createdAt) };
  if (ctx.config.organization.teams.enabled) wire.teamId = row.teamId ?? null;
  return wire;
}

export function toMemberWithUserWire(ctx: AuthContext, row: MemberWithUser) {
  return { ...toMemberWire(ctx, row), user: { id: row.user.id, name: row.user.name, email: row.user.email, image: row.user.image ?? null } };
}

export function toInvitationWire(ctx: AuthContext, row: InvitationRow) {
  const wire: Record<string, unknown> = {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    status: row.status,
    inviterId: row.inviterId,
    expiresAt: iso(row.expiresAt),
  };
  // Better Auth stores the invited teams comma-joined, so an invitation without a team carries "".
  if (ctx.config.organization.teams.enabled) wire.teamId = row.teamId ?? "";
  return wire;
}

export function toTeamWire(row: TeamRow) {
  return { id: row.id, name: row.name, organizationId: row.organizationId, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

export function toTeamMemberWire(row: TeamMemberRow) {
  return { id: row.id, teamId: row.teamId, userId: row.userId, createdAt: iso(row.createdAt) };
}
