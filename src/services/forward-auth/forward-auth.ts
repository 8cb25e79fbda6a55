import type { AuthContext } from "../../context.ts";
import { findMember, findOrganizationById, findOrganizationBySlug } from "../../db/repositories/organizations.ts";
import type { UserRow } from "../../db/schema.ts";
import { splitRoles } from "../access-control.ts";
import { isBanned } from "../users.ts";

// What a reverse proxy may ask of the caller before letting a request through (GET /forward-auth): a
// live session (checked by the route), and optionally a user role and an organization membership.

export interface ForwardAuthRequirements {
  /** Any one of these user roles (admin plugin roles, comma-separated in user.role). */
  roles: string[];
  /** An organization (id or slug) the user must be a member of. */
  organization: string | null;
  /** Any one of these roles in that organization. */
  organizationRoles: string[];
}

export type ForwardAuthDecision = "allowed" | "unauthenticated" | "forbidden";

async function isMemberWithRole(
  ctx: AuthContext,
  userId: string,
  organization: string,
  roles: string[],
): Promise<boolean> {
  const found =
    (await findOrganizationById(ctx.db, organization)) ?? (await findOrganizationBySlug(ctx.db, organization));
  if (!found) return false;
  const member = await findMember(ctx.db, found.id, userId);
  if (!member) return false;
  if (roles.length === 0) return true;
  const held = splitRoles(member.role);
  return roles.some((role) => held.includes(role));
}

/** Whether a signed-in user may pass: a banned user is no user; unmet requirements are forbidden. */
export async function decideForwardAuth(
  ctx: AuthContext,
  user: UserRow,
  requirements: ForwardAuthRequirements,
): Promise<ForwardAuthDecision> {
  if (isBanned(user, ctx.now())) return "unauthenticated";
  if (requirements.roles.length > 0) {
    const held = splitRoles(user.role);
    if (!requirements.roles.some((role) => held.includes(role))) return "forbidden";
  }
  if (requirements.organization !== null) {
    const member = await isMemberWithRole(ctx, user.id, requirements.organization, requirements.organizationRoles);
    if (!member) return "forbidden";
  }
  return "allowed";
}
