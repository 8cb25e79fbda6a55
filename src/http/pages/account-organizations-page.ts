import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { leaveOrganization } from "../../services/organizations/members.ts";
import { listOpenInvitations } from "../../services/organizations/open-invitations.ts";
import { listMemberships, setActiveOrganization } from "../../services/organizations/organizations.ts";
import { asActor } from "../organization-actor.ts";
import { type DrawSection, showAccountSection, takeAccountForm } from "./account-forms.ts";
import { accountState } from "./account-frame.ts";
import { answerAsInvitee } from "./invitation-page.ts";
import { renderPage } from "./respond.ts";

// The account page's organizations ({pages}/organizations, with organization.enabled): the user's
// memberships with their role, the session's active one marked; Switch (the service of
// POST /organization/set-active) and Leave (/organization/leave: the only owner cannot); and the invitations
// to the user's address that can be answered now, with Accept and Decline (the invitation page's way,
// through the services of accept-invitation and reject-invitation). Every id in a form is checked by the
// service against the signed-in user: another organization's or another user's invitation is refused.

const SECTION = "organizations";

const drawOrganizations =
  (c: Context, ctx: AuthContext): DrawSection =>
  async (session, problem = null, status = 200) => {
    const active = session.session.activeOrganizationId;
    const [memberships, invitations] = await Promise.all([
      listMemberships(ctx, session.user.id),
      listOpenInvitations(ctx, session.user),
    ]);
    const state = {
      ...accountState(c, ctx, session, problem),
      page: "account-organizations" as const,
      memberships: memberships.map(({ organizationId, name, role }) => ({
        organizationId,
        name,
        role,
        active: organizationId === active,
      })),
      invitations: invitations.map(({ id, organizationName, inviterEmail, role, expiresAt }) => ({
        id,
        organizationName,
        inviterEmail,
        role,
        expiresAt,
      })),
    };
    return renderPage(c, ctx, state, status);
  };

export const showOrganizations = (c: Context, ctx: AuthContext) =>
  showAccountSection(c, ctx, SECTION, drawOrganizations(c, ctx));

/** A form's id field: the services look it up for the signed-in user; an empty one names nothing. */
function idOf(value: string | undefined, missing: "ORGANIZATION_NOT_FOUND" | "INVITATION_NOT_FOUND"): string {
  if (!value) throw new AuthError(missing);
  return value;
}

export const postSwitchOrganization = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawOrganizations(c, ctx), async (session, fields) => {
    const organizationId = idOf(fields.organizationId, "ORGANIZATION_NOT_FOUND");
    await asActor(c, ctx, session, (actor) => setActiveOrganization(ctx, actor, { organizationId }));
    return "notice.account.organizationSwitched";
  });

export const postLeaveOrganization = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawOrganizations(c, ctx), async (session, fields) => {
    const organizationId = idOf(fields.organizationId, "ORGANIZATION_NOT_FOUND");
    await asActor(c, ctx, session, (actor) => leaveOrganization(ctx, actor, organizationId));
    return "notice.account.organizationLeft";
  });

const answerInvitation = (answer: "accept" | "reject") => (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawOrganizations(c, ctx), async (session, fields) => {
    await answerAsInvitee(c, ctx, session, idOf(fields.invitationId, "INVITATION_NOT_FOUND"), answer);
    return answer === "accept" ? "notice.account.invitationAccepted" : "notice.account.invitationDeclined";
  });

export const postAcceptOwnInvitation = answerInvitation("accept");
export const postDeclineOwnInvitation = answerInvitation("reject");
