import type { AuthContext } from "../../context.ts";
import * as invitations from "../../db/repositories/invitations.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import { AuthError } from "../../errors.ts";
import { splitRoles } from "../access-control.ts";
import type { EventSource } from "../security-events.ts";
import { settleRecorded } from "./invitations.ts";
import { sendInvitationMail, teamIdsOf, writeInvitationLocked } from "./issue-invitation.ts";
import { type RosterChange, removeMemberLocked, setMemberRoleLocked, withOrganizationLock } from "./members.ts";
import { invitationParties } from "./open-invitations.ts";
import { toInvitationWire, toMemberWire } from "./wire.ts";

// An operator acting on an organization they need not belong to (the web console; the front end has checked
// the admin permission organization:update). The steps and rules are the members' own (members.ts,
// invitations.ts): the operator may do what the creator role may, the organization keeps at least one holder
// of it, and every change records its event with the operator as the source and the organization's id.

function asOperator(organizationId: string, source: EventSource): RosterChange {
  return { organizationId, authority: { kind: "operator" }, actor: { source } };
}

/** The roles an operator may hand out: the organization role table's names. */
export function organizationRoleNames(ctx: AuthContext): string[] {
  return Object.keys(ctx.organizationRoles);
}

/** Give a member another role (a name of the role table; several comma-separated). */
export async function changeMemberRoleAsOperator(
  ctx: AuthContext,
  organizationId: string,
  memberId: string,
  role: string,
  source: EventSource,
) {
  const roles = splitRoles(role);
  const known = organizationRoleNames(ctx);
  if (roles.length === 0 || roles.some((name) => !known.includes(name)))
    throw new AuthError("ORGANIZATION_ROLE_NOT_FOUND");
  const change = asOperator(organizationId, source);
  const row = await withOrganizationLock(ctx, organizationId, (trx) =>
    setMemberRoleLocked(ctx, trx, change, memberId, roles.join(",")),
  );
  return toMemberWire(ctx, row);
}

/** Remove a member (their teams and the organization as their sessions' active one go too). */
export async function removeMemberAsOperator(
  ctx: AuthContext,
  organizationId: string,
  memberId: string,
  source: EventSource,
) {
  const change = asOperator(organizationId, source);
  const row = await withOrganizationLock(ctx, organizationId, async (trx) =>
    removeMemberLocked(ctx, trx, change, await orgs.findMemberById(trx, memberId)),
  );
  return toMemberWire(ctx, row);
}

/** A pending invitation of this organization (expired or not), or INVITATION_NOT_FOUND. */
async function pendingInvitationOf(ctx: AuthContext, organizationId: string, invitationId: string) {
  const invitation = await invitations.findInvitationById(ctx.db, invitationId);
  if (invitation?.organizationId !== organizationId || invitation.status !== "pending")
    throw new AuthError("INVITATION_NOT_FOUND");
  return invitation;
}

/**
 * Send a pending invitation again, expired or not: a re-invite as the API's resend makes one (a new
 * invitation with a new expiry, mailed in the inviter's name), which takes the place of the one named, so
 * the list keeps one invitation per address and the old link stops working.
 */
export async function resendInvitationAsOperator(
  ctx: AuthContext,
  organizationId: string,
  invitationId: string,
  source: EventSource,
) {
  const invitation = await pendingInvitationOf(ctx, organizationId, invitationId);
  const { inviter } = await invitationParties(ctx, invitation);
  // The invitation page shows who invited; an inviter who left cannot stand behind a new mail.
  if (!inviter) throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER");
  const issue = {
    organizationId,
    inviter,
    actor: { source },
    email: invitation.email,
    role: invitation.role,
    teamIds: ctx.config.organization.teams.enabled ? teamIdsOf(invitation.teamId) : [],
    resend: true,
  };
  const issued = await withOrganizationLock(ctx, organizationId, async (trx) => {
    // Still pending under the lock (an invitation accepted meanwhile stays accepted); canceled with the
    // new one's insert, or not at all.
    if (!(await invitations.cancelPendingInvitation(trx, invitation.id))) throw new AuthError("INVITATION_NOT_FOUND");
    return writeInvitationLocked(ctx, trx, issue);
  });
  sendInvitationMail(ctx, issued.invitation, issued.organization, inviter);
  return toInvitationWire(ctx, issued.invitation);
}

/** Cancel a pending, unexpired invitation (an expired one cannot be answered anyway). */
export async function cancelInvitationAsOperator(
  ctx: AuthContext,
  organizationId: string,
  invitationId: string,
  source: EventSource,
) {
  await pendingInvitationOf(ctx, organizationId, invitationId);
  return toInvitationWire(ctx, await settleRecorded(ctx, { source }, invitationId, "canceled", null));
}
