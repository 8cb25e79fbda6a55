import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import * as invitations from "../../db/repositories/invitations.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import { countTeamMembers, findTeamById } from "../../db/repositories/teams.ts";
import type { InvitationRow, OrganizationRow, Trx, UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { type Actor, recordOrganizationEvent } from "./actor.ts";
import { withOrganizationLock } from "./members.ts";

// Writing an invitation and mailing its link: a member's invite (invitations.ts) and an operator's resend
// (operator.ts) go through the same rules, event and mail.

/** An invitation's teams: Better Auth keeps them comma-joined in one column. */
export function teamIdsOf(value: string | string[] | null | undefined): string[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : value.split(",")).filter((id) => id !== "");
}

/** The operator's invitationAcceptURL; else authd's invitation page with the pages on; else the app's path Better Auth names. */
export function invitationLink(ctx: AuthContext, id: string): string {
  const template = ctx.config.organization.invitationAcceptURL;
  if (template) return template.replaceAll("{id}", encodeURIComponent(id));
  const { pages } = ctx.config;
  const path = pages.enabled ? `${pages.basePath}/invitation` : "/accept-invitation";
  return `${ctx.baseURL}${path}/${encodeURIComponent(id)}`;
}

export function sendInvitationMail(
  ctx: AuthContext,
  invitation: InvitationRow,
  organization: OrganizationRow,
  inviter: UserRow,
): void {
  ctx.sendMail({
    kind: "invitation",
    to: invitation.email,
    values: {
      email: invitation.email,
      inviterName: inviter.name,
      inviterEmail: inviter.email,
      organizationName: organization.name,
      role: invitation.role,
      link: invitationLink(ctx, invitation.id),
      expiresAt: Number(invitation.expiresAt),
    },
  });
}

async function assertTeamsCanTakeInvitee(
  ctx: AuthContext,
  db: Trx,
  organizationId: string,
  teamIds: string[],
): Promise<void> {
  const maximum = ctx.config.organization.teams.maximumMembersPerTeam;
  for (const teamId of teamIds) {
    if (!(await findTeamById(db, teamId, organizationId))) throw new AuthError("TEAM_NOT_FOUND");
    if (maximum !== undefined && (await countTeamMembers(db, teamId)) >= maximum)
      throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  }
}

/** An invitation to write and mail: who the mail names as inviter (a member), and who acts (for the event). */
export interface InvitationIssue {
  organizationId: string;
  inviter: UserRow;
  actor: Pick<Actor, "source">;
  email: string;
  role: string;
  teamIds: string[];
  /** A pending invitation to the same address may exist (a re-invite). */
  resend: boolean;
}

/** Writes a pending invitation (the rules an invite obeys, its event) and mails its accept link. */
export async function issueInvitation(ctx: AuthContext, issue: InvitationIssue): Promise<InvitationRow> {
  // Under the organization's lock, so concurrent invites cannot both pass the duplicate and limit checks.
  const written = await withOrganizationLock(ctx, issue.organizationId, (trx) =>
    writeInvitationLocked(ctx, trx, issue),
  );
  sendInvitationMail(ctx, written.invitation, written.organization, issue.inviter);
  return written.invitation;
}

/** The invitation's row and event, inside the organization's lock (withOrganizationLock); the mail is the caller's. */
export async function writeInvitationLocked(ctx: AuthContext, trx: Trx, issue: InvitationIssue) {
  const { organizationId, email, role, teamIds } = issue;
  const now = ctx.now();
  const organization = await orgs.findOrganizationById(trx, organizationId);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (await orgs.findMemberByEmail(trx, organizationId, email)) throw new AuthError("ALREADY_A_MEMBER");
  const pendingForEmail = await invitations.listPendingInvitations(trx, organizationId, now, email);
  if (pendingForEmail.length > 0 && !issue.resend) throw new AuthError("ALREADY_INVITED");
  if (pendingForEmail.length > 0 && ctx.config.organization.cancelPendingInvitationsOnReInvite) {
    for (const old of pendingForEmail) await invitations.cancelInvitation(trx, old.id);
  }
  if (
    (await invitations.listPendingInvitations(trx, organizationId, now)).length >=
    ctx.config.organization.invitationLimit
  )
    throw new AuthError("INVITATION_LIMIT_REACHED");
  await assertTeamsCanTakeInvitee(ctx, trx, organizationId, teamIds);
  const invitation = await invitations.insertInvitation(trx, {
    id: generateId(),
    organizationId,
    email,
    role,
    status: "pending",
    teamId: teamIds.length > 0 ? teamIds.join(",") : null,
    inviterId: issue.inviter.id,
    expiresAt: now + ctx.config.organization.invitationExpiresIn * 1000,
    createdAt: now,
  });
  const sent = { type: "invitation_sent", outcome: "success", invitationId: invitation.id, role } as const;
  await recordOrganizationEvent(ctx, trx, issue.actor, organizationId, sent, null);
  return { invitation, organization };
}
