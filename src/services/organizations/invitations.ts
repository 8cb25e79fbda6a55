import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { isUniqueViolationOn } from "../../db/errors.ts";
import * as invitations from "../../db/repositories/invitations.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import { countTeamMembers, findTeamById, findTeamMember, insertTeamMember } from "../../db/repositories/teams.ts";
import type { InvitationRow, Trx, UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { splitRoles } from "../access-control.ts";
import { normalizeEmail } from "../email-address.ts";
import {
  type Actor,
  changeActiveSession,
  recordOrganizationEvent,
  requireMembership,
  targetOrganizationId,
} from "./actor.ts";
import { issueInvitation, teamIdsOf } from "./issue-invitation.ts";
import { withOrganizationLock } from "./members.ts";
import { invitationParties, mustVerifyForInvitations } from "./open-invitations.ts";
import { creatorRole, hasOrganizationPermission, holdsCreatorRole, joinRoles } from "./permissions.ts";
import { toInvitationWire, toMemberWire } from "./wire.ts";

export interface InviteInput {
  email: string;
  role: string | string[];
  organizationId?: string;
  resend?: boolean;
  teamId?: string | string[];
}

/** Creates a pending invitation and mails its accept link to the invitee. */
export async function inviteMember(ctx: AuthContext, actor: Actor, input: InviteInput) {
  const organizationId = targetOrganizationId(actor, input.organizationId);
  if (!organizationId) throw new AuthError("ORGANIZATION_NOT_FOUND");
  const member = await requireMembership(ctx, organizationId, actor.user.id, "MEMBER_NOT_FOUND");
  if (!hasOrganizationPermission(ctx, member.role, { invitation: ["create"] }))
    throw new AuthError("NOT_ALLOWED_TO_INVITE");
  const role = joinRoles(input.role);
  if (!holdsCreatorRole(ctx, member.role) && splitRoles(role).includes(creatorRole(ctx)))
    throw new AuthError("NOT_ALLOWED_TO_INVITE_WITH_ROLE");
  const invitation = await issueInvitation(ctx, {
    organizationId,
    inviter: actor.user,
    actor,
    email: normalizeEmail(input.email),
    role,
    teamIds: ctx.config.organization.teams.enabled ? teamIdsOf(input.teamId) : [],
    resend: input.resend ?? false,
  });
  return toInvitationWire(ctx, invitation);
}

/** The invitation if it is still pending and addressed to the actor; refusals otherwise. */
async function pendingInvitationFor(ctx: AuthContext, actor: Actor, invitationId: string): Promise<InvitationRow> {
  const invitation = await invitations.findInvitationById(ctx.db, invitationId);
  if (invitation?.status !== "pending" || Number(invitation.expiresAt) <= ctx.now())
    throw new AuthError("INVITATION_NOT_FOUND");
  if (invitation.email.toLowerCase() !== actor.user.email.toLowerCase()) throw new AuthError("NOT_THE_RECIPIENT");
  return invitation;
}

function assertVerifiedIfRequired(ctx: AuthContext, actor: Actor): void {
  if (mustVerifyForInvitations(ctx, actor.user)) throw new AuthError("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
}

async function joinInvitedTeams(
  ctx: AuthContext,
  trx: Trx,
  invitation: InvitationRow,
  userId: string,
  now: number,
): Promise<string[]> {
  if (!ctx.config.organization.teams.enabled) return [];
  const maximum = ctx.config.organization.teams.maximumMembersPerTeam;
  const joined: string[] = [];
  for (const teamId of teamIdsOf(invitation.teamId)) {
    if (!(await findTeamById(trx, teamId, invitation.organizationId))) continue;
    if (await findTeamMember(trx, teamId, userId)) continue;
    if (maximum !== undefined && (await countTeamMembers(trx, teamId)) >= maximum)
      throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
    await insertTeamMember(trx, { id: generateId(), teamId, userId, createdAt: now });
    joined.push(teamId);
  }
  return joined;
}

/**
 * Accepts an invitation: the pending → accepted transition is a conditional UPDATE inside the
 * organization's lock, so of many concurrent accepts exactly one creates the member.
 */
export async function acceptInvitation(ctx: AuthContext, actor: Actor, invitationId: string) {
  const invitation = await pendingInvitationFor(ctx, actor, invitationId);
  assertVerifiedIfRequired(ctx, actor);
  const now = ctx.now();
  const outcome = await withOrganizationLock(ctx, invitation.organizationId, async (trx) => {
    if ((await orgs.countMembers(trx, invitation.organizationId)) >= ctx.config.organization.membershipLimit)
      throw new AuthError("MEMBERSHIP_LIMIT_REACHED");
    const accepted = await invitations.settlePendingInvitation(trx, invitation.id, "accepted", now);
    if (!accepted) throw new AuthError("INVITATION_NOT_FOUND");
    if (await orgs.findMember(trx, invitation.organizationId, actor.user.id)) throw new AuthError("ALREADY_A_MEMBER");
    const teamIds = await joinInvitedTeams(ctx, trx, accepted, actor.user.id, now);
    const member = await orgs.insertMember(trx, {
      id: generateId(),
      organizationId: accepted.organizationId,
      userId: actor.user.id,
      role: accepted.role,
      teamId: teamIds[0] ?? null,
      createdAt: now,
    });
    const { organizationId } = accepted;
    const events = [
      { type: "invitation_accepted", outcome: "success", invitationId: accepted.id },
      { type: "member_added", outcome: "success", memberId: member.id, role: member.role },
    ] as const;
    for (const event of events) await recordOrganizationEvent(ctx, trx, actor, organizationId, event, actor.user.id);
    return { accepted, member, teamIds };
  }).catch((error: unknown) => {
    if (isUniqueViolationOn(error, "userId") || isUniqueViolationOn(error, "member"))
      throw new AuthError("ALREADY_A_MEMBER");
    throw error;
  });
  await changeActiveSession(ctx, actor, {
    activeOrganizationId: invitation.organizationId,
    activeTeamId: outcome.teamIds.length === 1 ? outcome.teamIds[0] : null,
  });
  return { invitation: toInvitationWire(ctx, outcome.accepted), member: toMemberWire(ctx, outcome.member) };
}

/** Settle a pending invitation (rejected or canceled) and record the event in the same transaction. */
export function settleRecorded(
  ctx: AuthContext,
  actor: Pick<Actor, "source">,
  invitationId: string,
  status: "rejected" | "canceled",
  subjectId: string | null,
): Promise<InvitationRow> {
  return withTransaction(ctx, async (tx) => {
    const settled = await invitations.settlePendingInvitation(tx.db, invitationId, status, ctx.now());
    if (!settled) throw new AuthError("INVITATION_NOT_FOUND");
    const event = { type: `invitation_${status}`, outcome: "success", invitationId } as const;
    await recordOrganizationEvent(ctx, tx.db, actor, settled.organizationId, event, subjectId);
    return settled;
  });
}

export async function rejectInvitation(ctx: AuthContext, actor: Actor, invitationId: string) {
  await pendingInvitationFor(ctx, actor, invitationId);
  assertVerifiedIfRequired(ctx, actor);
  const rejected = await settleRecorded(ctx, actor, invitationId, "rejected", actor.user.id);
  return { invitation: toInvitationWire(ctx, rejected), member: null };
}

export async function cancelInvitation(ctx: AuthContext, actor: Actor, invitationId: string) {
  const invitation = await invitations.findInvitationById(ctx.db, invitationId);
  if (!invitation) throw new AuthError("INVITATION_NOT_FOUND");
  const member = await requireMembership(ctx, invitation.organizationId, actor.user.id, "MEMBER_NOT_FOUND");
  if (!hasOrganizationPermission(ctx, member.role, { invitation: ["cancel"] }))
    throw new AuthError("NOT_ALLOWED_TO_CANCEL_INVITATION");
  const canceled = await settleRecorded(ctx, actor, invitationId, "canceled", null);
  return toInvitationWire(ctx, canceled);
}

/** The invitee's view of a pending invitation, with the organization's name and slug and the inviter's email. */
export async function getInvitation(ctx: AuthContext, actor: Actor, invitationId: string) {
  const invitation = await pendingInvitationFor(ctx, actor, invitationId);
  assertVerifiedIfRequired(ctx, actor);
  const { organization, inviter } = await invitationParties(ctx, invitation);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (!inviter) throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER");
  return {
    ...toInvitationWire(ctx, invitation),
    organizationName: organization.name,
    organizationSlug: organization.slug,
    inviterEmail: inviter.email,
  };
}

export async function listInvitations(ctx: AuthContext, actor: Actor, organizationId: string | undefined) {
  const id = targetOrganizationId(actor, organizationId);
  if (!id) throw new AuthError("ORGANIZATION_ID_REQUIRED");
  await requireMembership(ctx, id, actor.user.id, "NOT_A_MEMBER_OF_ORGANIZATION");
  return (await invitations.listInvitationsOfOrganization(ctx.db, id)).map((i) => toInvitationWire(ctx, i));
}

/** Invitations addressed to the signed-in user (none while verification is required and missing), or to an email the server names. */
export async function listUserInvitations(
  ctx: AuthContext,
  recipient: { user: Pick<UserRow, "email" | "emailVerified"> } | { email: string },
) {
  if ("user" in recipient && mustVerifyForInvitations(ctx, recipient.user)) return [];
  const email = "user" in recipient ? recipient.user.email : recipient.email;
  return (await invitations.listInvitationsForEmail(ctx.db, email)).map((i) => toInvitationWire(ctx, i));
}
