import type { Context } from "hono";
import type { ConsoleOrganizationInvitation, ConsoleOrganizationRow } from "../../../ui/web/state.ts";
import { consoleScreen, queryNumber } from "./frame.ts";

// The organizations screens: the listing's search (name or slug) a page at a time, and one organization
// (by id or slug) with its members, invitations and teams; their forms are in organization-actions.ts.

const PAGE_SIZE = 50;

export const organizationsScreen = consoleScreen(
  "organizations",
  { organization: ["list"] },
  async (c, _ctx, access) => {
    const search = (c.req.query("search") ?? "").trim().slice(0, 256);
    const offset = queryNumber(c.req.query("offset"), 0);
    const page = await access.data.listOrganizations({ search: search || undefined, limit: PAGE_SIZE, offset });
    const organizations: ConsoleOrganizationRow[] = page.items.map((organization) => ({
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      memberCount: organization.memberCount,
      createdAt: organization.createdAt,
    }));
    return {
      page: "console-organizations",
      organizations,
      total: page.total,
      query: { search, offset, limit: PAGE_SIZE },
    };
  },
);

/** The organization the path names (/console/organizations/:id/…). */
export const organizationIdOf = (c: Context): string => c.req.param("id") ?? "";

export const organizationScreen = consoleScreen("organizations", { organization: ["get"] }, async (c, _ctx, access) => {
  const overview = await access.data.describeOrganization(organizationIdOf(c));
  if (!overview) return null;
  const now = access.data.now();
  const invitations: ConsoleOrganizationInvitation[] = overview.invitations.map((invitation) => ({
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    expired: invitation.status === "pending" && Date.parse(invitation.expiresAt ?? "") <= now,
    expiresAt: invitation.expiresAt,
  }));
  const { id, name, slug, createdAt } = overview.organization;
  return {
    page: "console-organization",
    organization: { id, name, slug, createdAt },
    members: overview.members.map((member) => ({
      id: member.id,
      userId: member.userId,
      name: member.name,
      email: member.email,
      role: member.role,
      createdAt: member.createdAt,
    })),
    invitations,
    teams: overview.teams.map((team) => ({
      id: team.id,
      name: team.name,
      memberCount: team.memberCount,
      createdAt: team.createdAt,
    })),
    roles: access.data.organizationRoles(),
  };
});

export const ORGANIZATIONS_HANDLERS = {
  showOrganizations: organizationsScreen.show,
  showOrganization: organizationScreen.show,
};
