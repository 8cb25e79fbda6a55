import type { AuthContext } from "../../context.ts";

// Who may do what inside an organization. Roles map resources to allowed actions; a member's role field
// may hold several comma-separated roles and is granted a request when any one role grants all of it.
// Kept behind these few functions so a shared access-control engine can replace the body later.

export type PermissionRequest = Record<string, string[]>;
export type RoleDefinition = Record<string, string[]>;

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

/** The role table in force: the configured roles replace the defaults when given. */
export function organizationRoles(ctx: AuthContext): Record<string, RoleDefinition> {
  return ctx.config.organization.roles ?? DEFAULT_ROLES;
}

/** "admin, owner" → ["admin", "owner"]. */
export function splitRoles(role: string): string[] {
  return role
    .split(",")
    .map((r) => r.trim())
    .filter((r) => r !== "");
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

function roleGrants(definition: RoleDefinition | undefined, request: PermissionRequest): boolean {
  if (!definition) return false;
  return Object.entries(request).every(([resource, actions]) => {
    const allowed = definition[resource];
    return allowed !== undefined && actions.every((action) => allowed.includes(action));
  });
}

/** True when any of the member's roles grants every action of the request. An empty request grants nothing. */
export function hasOrganizationPermission(ctx: AuthContext, role: string, request: PermissionRequest): boolean {
  if (Object.keys(request).length === 0) return false;
  const roles = organizationRoles(ctx);
  return splitRoles(role).some((name) => Object.hasOwn(roles, name) && roleGrants(roles[name], request));
}
