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

/**
 * Who acts on an organization: a member, whose role decides, or an operator holding the admin permission
 * organization:update (the front end checks it), who may do what the creator role may. The organization's
 * own rules (it keeps at least one holder of the creator role) bind both.
 */
export type OrganizationAuthority = { kind: "member"; role: string } | { kind: "operator" };

export function actsAsCreator(ctx: AuthContext, authority: OrganizationAuthority): boolean {
  return authority.kind === "operator" || holdsCreatorRole(ctx, authority.role);
}

export function authorityAllows(
  ctx: AuthContext,
  authority: OrganizationAuthority,
  request: PermissionRequest,
): boolean {
  return authority.kind === "operator" || hasOrganizationPermission(ctx, authority.role, request);
}
