import type { AuthContext } from "../../context.ts";
import * as invitations from "../../db/repositories/invitations.ts";
import * as orgs from "../../db/repositories/organizations.ts";
import { findUserById } from "../../db/repositories/users.ts";
import type { InvitationRow, UserRow } from "../../db/schema.ts";
import { toInvitationWire } from "./wire.ts";

// What an invitee sees of the invitations to their address: who may see them at all, and the parties of
// one (its organization and inviter), for get-invitation and for the account page's list.

// Anyone can sign up with an invitee's address; only a verified address proves it is the invitee's.
// So by default an unverified account neither sees nor reads nor settles invitations addressed to it.
export function mustVerifyForInvitations(ctx: AuthContext, user: Pick<UserRow, "emailVerified">): boolean {
  return ctx.config.organization.requireEmailVerificationOnInvitation && !user.emailVerified;
}

/** The organization an invitation is to, and its inviter while they are still a member (else undefined). */
export async function invitationParties(ctx: AuthContext, invitation: InvitationRow) {
  const organization = await orgs.findOrganizationById(ctx.db, invitation.organizationId);
  const inviterMember = await orgs.findMember(ctx.db, invitation.organizationId, invitation.inviterId);
  const inviter = inviterMember ? await findUserById(ctx.db, invitation.inviterId) : undefined;
  return { organization, inviter };
}

/**
 * The invitations the signed-in user can answer now (pending, unexpired, to their address; none while
 * their address must be confirmed first), each with its organization's name and the inviter's email (null
 * once the inviter has left), oldest first: what the account page lists.
 */
export async function listOpenInvitations(ctx: AuthContext, user: Pick<UserRow, "email" | "emailVerified">) {
  if (mustVerifyForInvitations(ctx, user)) return [];
  const now = ctx.now();
  const open = (await invitations.listInvitationsForEmail(ctx.db, user.email)).filter(
    (invitation) => invitation.status === "pending" && Number(invitation.expiresAt) > now,
  );
  const listed = [];
  for (const invitation of open) {
    const { organization, inviter } = await invitationParties(ctx, invitation);
    if (!organization) continue;
    listed.push({
      ...toInvitationWire(ctx, invitation),
      organizationName: organization.name,
      inviterEmail: inviter?.email ?? null,
    });
  }
  return listed;
}
