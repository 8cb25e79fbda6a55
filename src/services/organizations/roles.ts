import type { Config } from "../../config/schema.ts";
import { defineRole, type RoleMap } from "../access-control.ts";

// The role table of organization members: the configured roles replace the defaults when given. Built
// once per context (AuthContext.organizationRoles).

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

export function createOrganizationRoles(config: Config): RoleMap {
  const definitions = config.organization.roles ?? DEFAULT_ROLES;
  return Object.fromEntries(Object.entries(definitions).map(([name, statements]) => [name, defineRole(statements)]));
}
