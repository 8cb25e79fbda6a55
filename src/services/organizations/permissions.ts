import type { AuthContext } from "../../context.ts";
import { type RoleMap, defineRole, roleAllows, splitRoles } from "../access-control.ts";

// Who may do what inside an organization, on the shared access-control engine. A member's role field may
// hold several comma-separated roles; a request is granted when any one role grants all of it.

export type PermissionRequest = Record<string, string[]>;
export type RoleDefinition = Record<string, string[]>;

export { splitRoles };

const DEFAULT_ROLES: Record<string, RoleDefinition> = {
  owner: {
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
  },
  admin: {
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
  },
  member: { organization: [], member: [], invitation: [], team: [] },
};

const roleMaps = new WeakMap<AuthContext, RoleMap>();

/** The role table in force: the configured roles replace the defaults when given. */
export function organizationRoles(ctx: AuthContext): RoleMap {
  let roles = roleMaps.get(ctx);
  if (!roles) {
    const definitions = ctx.config.organization.roles ?? DEFAULT_ROLES;
    roles = Object.fromEntries(Object.entries(definitions).map(([name, statements]) => [name, defineRole(statements)]));
    roleMaps.set(ctx, roles);
  }
  return roles;
}

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
  return roleAllows(organizationRoles(ctx), role, request).allowed;
}
