import type { AuthContext } from "../../../context.ts";
import type { Route } from "../../route.ts";
import { invitationRoutes } from "./invitations.ts";
import { memberRoutes } from "./members.ts";
import { organizationCoreRoutes } from "./organizations.ts";
import { teamRoutes } from "./teams.ts";

/** The /organization routes the configuration enables (none when organizations are off; teams only when on). */
export function organizationRoutes(ctx: AuthContext): Route[] {
  const options = ctx.config.organization;
  if (!options.enabled) return [];
  return [
    ...organizationCoreRoutes,
    ...memberRoutes,
    ...invitationRoutes,
    ...(options.teams.enabled ? teamRoutes : []),
  ];
}
