import type { ConsoleFrame } from "./frame-state.ts";

// The organizations screens (/console/organizations and /console/organizations/:id): a page of the
// search's organizations, and one organization with its members, invitations and teams.

export interface ConsoleOrganizationRow {
  id: string;
  name: string;
  slug: string;
  memberCount: number;
  createdAt: string;
}

export interface ConsoleOrganizationsState {
  page: "console-organizations";
  console: ConsoleFrame;
  organizations: ConsoleOrganizationRow[];
  total: number;
  query: { search: string; offset: number; limit: number };
}

export interface ConsoleOrganizationMember {
  id: string;
  userId: string;
  name: string;
  email: string;
  /** One role or several, comma-separated. */
  role: string;
  createdAt: string | null;
}

export interface ConsoleOrganizationInvitation {
  id: string;
  email: string;
  role: string;
  /** pending, accepted, rejected or canceled. */
  status: string;
  /** Pending past its expiry: it can be sent again, not answered. */
  expired: boolean;
  expiresAt: string | null;
}

export interface ConsoleOrganizationTeam {
  id: string;
  name: string;
  memberCount: number;
  createdAt: string | null;
}

export interface ConsoleOrganizationState {
  page: "console-organization";
  console: ConsoleFrame;
  organization: { id: string; name: string; slug: string; createdAt: string };
  members: ConsoleOrganizationMember[];
  invitations: ConsoleOrganizationInvitation[];
  teams: ConsoleOrganizationTeam[];
  /** The role table's names: what a member's role may be set to. */
  roles: string[];
}
