import type { AuthContext } from "../context.ts";
import { listAccountsByUserId } from "../db/repositories/accounts.ts";
import {
  findOrganizationByIdOrSlug,
  listOrganizationInvitations,
  listOrganizationMembers,
  listOrganizationTeams,
  listUserMemberships,
  type MemberListRow,
  type MembershipRow,
  type TeamListRow,
} from "../db/repositories/directory.ts";
import type { InvitationRow, OrganizationRow } from "../db/schema.ts";
import { type ApiKeyWire, listApiKeys } from "./api-keys.ts";
import { listSessions } from "../db/repositories/sessions.ts";
import { findUserByIdOrEmail } from "../db/repositories/users.ts";
import { toSessionWire, type SessionWire } from "./sessions.ts";
import { iso, toUserWire, type UserWire } from "./users.ts";

// Everything an operator sees about one user or organization (CLI `users show` / `orgs show`, the
// terminal UI's detail screens).
// Secrets never leave here: no password hashes, provider tokens or hashed API keys.

export interface LinkedAccountSummary {
  id: string;
  providerId: string;
  accountId: string;
  createdAt: string;
}

export type SessionSummary = Pick<SessionWire, "id" | "userId" | "expiresAt" | "ipAddress" | "userAgent" | "createdAt" | "updatedAt"> & Record<string, unknown>;

export interface UserOverview {
  user: UserWire;
  /** Active sessions, without their tokens (a token is a bearer credential). */
  sessions: SessionSummary[];
  accounts: LinkedAccountSummary[];
  organizations: MembershipRow[];
  apiKeys: ApiKeyWire[];
}

export async function describeUser(ctx: AuthContext, idOrEmail: string): Promise<UserOverview | null> {
  const row = await findUserByIdOrEmail(ctx.db, idOrEmail);
  if (!row) return null;
  const [sessions, accounts, organizations, apiKeys] = await Promise.all([
    listSessions(ctx.db, { userId: row.id, activeAt: ctx.now(), limit: 1000 }),
    listAccountsByUserId(ctx.db, row.id),
    listUserMemberships(ctx.db, row.id),
    listApiKeys(ctx, row.id),
  ]);
  return {
    user: toUserWire(ctx, row),
    sessions: sessions.map((s) => {
      const { token: _token, ...wire } = toSessionWire(ctx, s);
      return wire;
    }),
    accounts: accounts.map((a) => ({ id: a.id, providerId: a.providerId, accountId: a.accountId, createdAt: iso(a.createdAt) as string })),
    organizations,
    apiKeys,
  };
}

export interface OrganizationOverview {
  organization: OrganizationRow;
  members: MemberListRow[];
  invitations: InvitationRow[];
  teams: TeamListRow[];
}

export async function describeOrganization(ctx: AuthContext, idOrSlug: string): Promise<OrganizationOverview | null> {
  const organization = await findOrganizationByIdOrSlug(ctx.db, idOrSlug);
  if (!organization) return null;
  const [members, invitations, teams] = await Promise.all([
    listOrganizationMembers(ctx.db, organization.id),
    listOrganizationInvitations(ctx.db, organization.id),
    listOrganizationTeams(ctx.db, organization.id),
  ]);
  return { organization, members, invitations, teams };
}
