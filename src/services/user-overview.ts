import type { AuthContext } from "../context.ts";
import { listAccountsByUserId } from "../db/repositories/accounts.ts";
import {
  findOrganizationByIdOrSlug,
  listOrganizationInvitations,
  listOrganizationMembers,
  listOrganizationTeams,
  listUserMemberships,
} from "../db/repositories/directory.ts";
import { listSessions } from "../db/repositories/sessions.ts";
import { findUserByIdOrEmail } from "../db/repositories/users.ts";
import type { UserRow } from "../db/schema.ts";
import { type ApiKeyWire, listApiKeys } from "./api-keys/api-keys.ts";
import { type SessionSummary, toSessionSummary } from "./directory.ts";
import { toOrganizationWire } from "./organizations/wire.ts";
import { listPasskeys } from "./passkeys/passkeys.ts";
import { countBackupCodes } from "./two-factor/enrollment.ts";
import { listTrustedDevices } from "./two-factor/trusted-devices.ts";
import { isBanned, iso, toUserWire, type UserWire } from "./users.ts";

// Everything an operator sees about one user or organization (CLI `users show` / `orgs show`, the
// terminal UI's detail screens), as JSON-ready objects with ISO dates: the one place these overviews
// are built. Secrets never leave here: no password hashes, provider tokens or hashed API keys.

export type { SessionSummary };

export interface LinkedAccountSummary {
  id: string;
  providerId: string;
  accountId: string;
  createdAt: string;
}

export interface MembershipSummary {
  organizationId: string;
  name: string;
  slug: string;
  role: string;
}

/** A passkey as operators see it (its public key and counter are left out: nothing to act on). */
export interface PasskeySummary {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  transports: string | null;
  aaguid: string | null;
  createdAt: string | null;
}

/** The user's second factor as operators see it (null in an overview while two-factor is off). */
export interface SecondFactorSummary {
  enabled: boolean;
  /** Backup codes left unused. */
  backupCodes: number;
  /** Browsers that skip the second factor until their trust runs out. */
  trustedBrowsers: number;
}

export interface UserOverview {
  user: UserWire;
  /** Active sessions, without their tokens (a token is a bearer credential). */
  sessions: SessionSummary[];
  accounts: LinkedAccountSummary[];
  organizations: MembershipSummary[];
  /** ownerBanned: the user's ban is in force, so every key is refused (USER_IS_BANNED). */
  apiKeys: (ApiKeyWire & { ownerBanned: boolean })[];
  passkeys: PasskeySummary[];
  secondFactor: SecondFactorSummary | null;
}

async function describeSecondFactor(ctx: AuthContext, user: UserRow): Promise<SecondFactorSummary | null> {
  if (!ctx.config.twoFactor.enabled) return null;
  const [backupCodes, trusted] = await Promise.all([
    countBackupCodes(ctx, user.id),
    listTrustedDevices(ctx, user.id, null),
  ]);
  return { enabled: Boolean(user.twoFactorEnabled), backupCodes, trustedBrowsers: trusted.length };
}

export async function describeUser(ctx: AuthContext, idOrEmail: string): Promise<UserOverview | null> {
  const row = await findUserByIdOrEmail(ctx.db, idOrEmail);
  if (!row) return null;
  const [sessions, accounts, organizations, apiKeys, passkeys, secondFactor] = await Promise.all([
    listSessions(ctx.db, { userId: row.id, activeAt: ctx.now(), limit: 1000 }),
    listAccountsByUserId(ctx.db, row.id),
    listUserMemberships(ctx.db, row.id),
    listApiKeys(ctx, row.id),
    listPasskeys(ctx, row.id),
    describeSecondFactor(ctx, row),
  ]);
  const ownerBanned = isBanned(row, ctx.now());
  return {
    user: toUserWire(ctx, row),
    sessions: sessions.map((session) => toSessionSummary(ctx, session)),
    accounts: accounts.map((a) => ({
      id: a.id,
      providerId: a.providerId,
      accountId: a.accountId,
      createdAt: iso(a.createdAt) as string,
    })),
    organizations,
    apiKeys: apiKeys.map((key) => ({ ...key, ownerBanned })),
    passkeys: passkeys.map(({ id, name, deviceType, backedUp, transports, aaguid, createdAt }) => ({
      id,
      name,
      deviceType,
      backedUp,
      transports,
      aaguid,
      createdAt,
    })),
    secondFactor,
  };
}

export async function describeOrganization(ctx: AuthContext, idOrSlug: string) {
  const organization = await findOrganizationByIdOrSlug(ctx.db, idOrSlug);
  if (!organization) return null;
  const [members, invitations, teams] = await Promise.all([
    listOrganizationMembers(ctx.db, organization.id),
    listOrganizationInvitations(ctx.db, organization.id),
    listOrganizationTeams(ctx.db, organization.id),
  ]);
  return {
    organization: toOrganizationWire(organization),
    members: members.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
    invitations: invitations.map((i) => ({ ...i, expiresAt: iso(i.expiresAt), createdAt: iso(i.createdAt) })),
    teams: teams.map((t) => ({ ...t, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) })),
  };
}

export type OrganizationOverview = NonNullable<Awaited<ReturnType<typeof describeOrganization>>>;
