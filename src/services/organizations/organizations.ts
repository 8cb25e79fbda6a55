import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { isUniqueViolationOn } from "../../db/errors.ts";
import { toJSONColumn } from "../../db/json-column.ts";
import { listUserMemberships } from "../../db/repositories/directory.ts";
import { listInvitationsOfOrganization } from "../../db/repositories/invitations.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import { insertTeam, insertTeamMember, listTeamsOfOrganization } from "../../db/repositories/teams.ts";
import type { MemberRow, OrganizationRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { inTransaction } from "../../platform/transaction.ts";
import { clearActiveOrganization } from "../sessions/sessions.ts";
import {
  type Actor,
  changeActiveSession,
  recordOrganizationEvent,
  requireMembership,
  targetOrganizationId,
} from "./actor.ts";
import { hasOrganizationPermission } from "./permissions.ts";
import { toInvitationWire, toMemberWire, toMemberWithUserWire, toOrganizationWire, toTeamWire } from "./wire.ts";

export interface CreateOrganizationInput {
  name: string;
  slug: string;
  logo?: string;
  metadata?: Record<string, unknown>;
  keepCurrentActiveOrganization?: boolean;
}

async function assertMayCreate(ctx: AuthContext, userId: string): Promise<void> {
  const options = ctx.config.organization;
  if (!options.allowUserToCreateOrganization) throw new AuthError("NOT_ALLOWED_TO_CREATE_ORGANIZATION");
  if (
    options.organizationLimit !== undefined &&
    (await orgs.countOrganizationsOfUser(ctx.db, userId)) >= options.organizationLimit
  ) {
    throw new AuthError("ORGANIZATION_LIMIT_REACHED");
  }
}

/** Creates the organization with its creator as a member (and a default team when teams are on). */
export async function createOrganization(ctx: AuthContext, actor: Actor, input: CreateOrganizationInput) {
  await assertMayCreate(ctx, actor.user.id);
  if (await orgs.findOrganizationBySlug(ctx.db, input.slug)) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
  const now = ctx.now();
  const teamsOn = ctx.config.organization.teams.enabled;
  let created: { organization: OrganizationRow; member: MemberRow; teamId: string | null };
  try {
    created = await inTransaction(ctx.db, async (trx) => {
      const organization = await orgs.insertOrganization(trx, {
        id: generateId(),
        name: input.name,
        slug: input.slug,
        logo: input.logo ?? null,
        metadata: toJSONColumn(input.metadata),
        createdAt: now,
      });
      const team = teamsOn
        ? await insertTeam(trx, {
            id: generateId(),
            name: organization.name,
            organizationId: organization.id,
            createdAt: now,
            updatedAt: null,
          })
        : null;
      const member = await orgs.insertMember(trx, {
        id: generateId(),
        organizationId: organization.id,
        userId: actor.user.id,
        role: ctx.config.organization.creatorRole,
        teamId: team?.id ?? null,
        createdAt: now,
      });
      if (team)
        await insertTeamMember(trx, { id: generateId(), teamId: team.id, userId: actor.user.id, createdAt: now });
      const created = { type: "organization_created", outcome: "success" } as const;
      await recordOrganizationEvent(ctx, trx, actor, organization.id, created, actor.user.id);
      return { organization, member, teamId: team?.id ?? null };
    });
  } catch (error) {
    if (isUniqueViolationOn(error, "slug")) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
  if (!input.keepCurrentActiveOrganization) {
    await changeActiveSession(ctx, actor, {
      activeOrganizationId: created.organization.id,
      ...(created.teamId ? { activeTeamId: created.teamId } : {}),
    });
  }
  return { ...toOrganizationWire(created.organization), members: [toMemberWire(ctx, created.member)] };
}

export async function isSlugFree(ctx: AuthContext, slug: string): Promise<boolean> {
  return (await orgs.findOrganizationBySlug(ctx.db, slug)) === undefined;
}

export async function listOrganizations(ctx: AuthContext, userId: string) {
  return (await orgs.listOrganizationsOfUser(ctx.db, userId)).map(toOrganizationWire);
}

/** The user's memberships: each organization's id, name and slug with the user's role there, by name. */
export function listMemberships(ctx: AuthContext, userId: string) {
  return listUserMemberships(ctx.db, userId);
}

export interface FullOrganizationQuery {
  organizationId?: string;
  organizationSlug?: string;
  membersLimit?: number;
}

/** The organization with members, invitations and teams; null when none is named or active. */
export async function getFullOrganization(ctx: AuthContext, actor: Actor, query: FullOrganizationQuery) {
  const idOrSlug = query.organizationSlug || targetOrganizationId(actor, query.organizationId);
  if (!idOrSlug) return null;
  const organization = query.organizationSlug
    ? await orgs.findOrganizationBySlug(ctx.db, idOrSlug)
    : await orgs.findOrganizationById(ctx.db, idOrSlug);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (!(await orgs.findMember(ctx.db, organization.id, actor.user.id))) {
    if (actor.session?.activeOrganizationId === organization.id)
      await changeActiveSession(ctx, actor, { activeOrganizationId: null, activeTeamId: null });
    throw new AuthError("USER_IS_NOT_A_MEMBER");
  }
  const limit = query.membersLimit ?? ctx.config.organization.membershipLimit;
  const [{ members }, invitations, teams] = await Promise.all([
    orgs.listMembersWithUsers(ctx.db, organization.id, { limit, offset: 0 }),
    listInvitationsOfOrganization(ctx.db, organization.id),
    ctx.config.organization.teams.enabled ? listTeamsOfOrganization(ctx.db, organization.id) : Promise.resolve(null),
  ]);
  return {
    ...toOrganizationWire(organization),
    members: members.map((m) => toMemberWithUserWire(ctx, m)),
    invitations: invitations.map((i) => toInvitationWire(ctx, i)),
    teams: teams ? teams.map(toTeamWire) : null,
  };
}

/** Makes an organization the session's active one (null clears it); answers the organization or null. */
export async function setActiveOrganization(
  ctx: AuthContext,
  actor: Actor,
  input: { organizationId?: string | null; organizationSlug?: string },
) {
  if (input.organizationId === null && !input.organizationSlug) {
    if (actor.session?.activeOrganizationId)
      await changeActiveSession(ctx, actor, { activeOrganizationId: null, activeTeamId: null });
    return null;
  }
  let organization: OrganizationRow | undefined;
  if (input.organizationSlug) organization = await orgs.findOrganizationBySlug(ctx.db, input.organizationSlug);
  else {
    const id = targetOrganizationId(actor, input.organizationId);
    if (!id) return null;
    organization = await orgs.findOrganizationById(ctx.db, id);
  }
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (!(await orgs.findMember(ctx.db, organization.id, actor.user.id))) {
    if (actor.session?.activeOrganizationId)
      await changeActiveSession(ctx, actor, { activeOrganizationId: null, activeTeamId: null });
    throw new AuthError("USER_IS_NOT_A_MEMBER");
  }
  if (actor.session?.activeOrganizationId !== organization.id)
    await changeActiveSession(ctx, actor, { activeOrganizationId: organization.id, activeTeamId: null });
  return toOrganizationWire(organization);
}

export interface OrganizationChanges {
  name?: string;
  slug?: string;
  logo?: string;
  metadata?: Record<string, unknown>;
}

export async function updateOrganization(
  ctx: AuthContext,
  actor: Actor,
  organizationId: string | undefined,
  data: OrganizationChanges,
) {
  const id = targetOrganizationId(actor, organizationId);
  if (!id) throw new AuthError("ORGANIZATION_NOT_FOUND");
  const member = await requireMembership(ctx, id, actor.user.id, "USER_IS_NOT_A_MEMBER");
  if (!hasOrganizationPermission(ctx, member.role, { organization: ["update"] }))
    throw new AuthError("NOT_ALLOWED_TO_UPDATE_ORGANIZATION");
  const changes: Partial<OrganizationRow> = {};
  if (data.name !== undefined) changes.name = data.name;
  if (data.slug !== undefined) changes.slug = data.slug;
  if (data.logo !== undefined) changes.logo = data.logo;
  if (data.metadata !== undefined) changes.metadata = toJSONColumn(data.metadata);
  try {
    const updated =
      Object.keys(changes).length > 0
        ? await orgs.updateOrganization(ctx.db, id, changes)
        : await orgs.findOrganizationById(ctx.db, id);
    if (!updated) throw new AuthError("ORGANIZATION_NOT_FOUND");
    return toOrganizationWire(updated);
  } catch (error) {
    if (isUniqueViolationOn(error, "slug")) throw new AuthError("SLUG_IS_TAKEN");
    throw error;
  }
}

/** Deletes the organization, its members, invitations and teams; answers the deleted organization. */
export async function deleteOrganization(ctx: AuthContext, actor: Actor, organizationId: string) {
  const member = await requireMembership(ctx, organizationId, actor.user.id, "USER_IS_NOT_A_MEMBER");
  if (!hasOrganizationPermission(ctx, member.role, { organization: ["delete"] }))
    throw new AuthError("NOT_ALLOWED_TO_DELETE_ORGANIZATION");
  if (ctx.config.organization.disableOrganizationDeletion) throw new AuthError("NOT_ALLOWED_TO_DELETE_ORGANIZATION");
  const organization = await orgs.findOrganizationById(ctx.db, organizationId);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  await inTransaction(ctx.db, async (trx) => {
    await clearActiveOrganization(ctx, trx, organizationId);
    await orgs.deleteOrganizationCascade(trx, organizationId);
    const deleted = { type: "organization_deleted", outcome: "success" } as const;
    await recordOrganizationEvent(ctx, trx, actor, organizationId, deleted, actor.user.id);
  });
  if (actor.session?.activeOrganizationId === organizationId) {
    actor.session = { ...actor.session, activeOrganizationId: null, activeTeamId: null };
    actor.sessionChanged = true;
  }
  return toOrganizationWire(organization);
}
