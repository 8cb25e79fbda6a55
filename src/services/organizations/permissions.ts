import type { AuthContext } from "../../context.ts";
import { roleAllows, splitRoles } from "../access-control.ts";

// Who may do what inside an organization, on the shared access-control engine. A member's role field may
// hold several comma-separated roles; a request is granted when any one role grants all of it.

export type PermissionRequest = Record<string, string[]>;

/** A role body value (one role or a list) as the stored comma-separated string. */
export function joinRoles(role: string | string[]): string {
  return Array.isArray(role) ? role.join(",") : role;
}

export function creatorRole(ctx: AuthContext): string {
  return ctx.config.organization.creatorRole;
}

/** Whether a member's role field includes the creator role (owner by default). */
export function holdsCreatorRole(ctx: AuthContext, role: string): boolean {
  return splitRoles(role).includes(creatorRole(ctx));
}

/** True when any of the member's roles grants every action of the request. An empty request grants nothing. */
export function hasOrganizationPermission(ctx: AuthContext, role: string, request: PermissionRequest): boolean {
  return roleAllows(ctx.organizationRoles, role, request).allowed;
}
