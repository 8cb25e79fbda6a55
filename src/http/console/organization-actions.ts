import type { Context } from "hono";
import type { ConsoleMessageKey } from "../../../ui/shared/messages/console.ts";
import type { ErrorKey } from "../../errors.ts";
import type { FormFields } from "../pages/guard.ts";
import { formAction, requireConfirmed } from "./form-problems.ts";
import { organizationIdOf, organizationScreen } from "./organizations-page.ts";

// The forms of an organization's screen (/console/organizations/:id/…): each needs organization:update, acts
// through AdminData as the signed-in admin (the members' own rules and events, the admin as their source)
// and goes back to the organization with a notice. A refusal an operator reads in other words than a member
// (the only owner, a member or invitation gone meanwhile) is drawn beside the member's or invitation's row.

const UPDATE = { organization: ["update"] };

const WORDS: Partial<Record<ErrorKey, ConsoleMessageKey>> = {
  CANNOT_LEAVE_AS_ONLY_OWNER: "console.organizations.problem.lastOwner",
  ORGANIZATION_ROLE_NOT_FOUND: "console.organizations.problem.role",
  MEMBER_NOT_FOUND: "console.organizations.problem.memberGone",
  INVITATION_NOT_FOUND: "console.organizations.problem.invitationGone",
  INVITER_IS_NO_LONGER_A_MEMBER: "console.organizations.problem.inviterLeft",
  ALREADY_A_MEMBER: "console.organizations.problem.alreadyMember",
  INVITATION_LIMIT_REACHED: "console.organizations.problem.invitationLimit",
  TEAM_NOT_FOUND: "console.organizations.problem.teams",
  TEAM_MEMBER_LIMIT_REACHED: "console.organizations.problem.teams",
};

const memberForm = (fields: FormFields) => `member-${fields.memberId ?? ""}`;
const invitationForm = (fields: FormFields) => `invitation-${fields.invitationId ?? ""}`;

const back = (c: Context, notice: ConsoleMessageKey) => ({
  to: `/organizations/${encodeURIComponent(organizationIdOf(c))}`,
  notice,
});

export const ORGANIZATION_ACTION_HANDLERS = {
  changeOrganizationMemberRole: formAction(
    UPDATE,
    organizationScreen.draw,
    memberForm,
    WORDS,
    async (c, _ctx, access, fields) => {
      await access.data.changeMemberRole(organizationIdOf(c), fields.memberId ?? "", fields.role ?? "");
      return back(c, "console.organizations.notice.roleChanged");
    },
  ),
  removeOrganizationMember: formAction(
    UPDATE,
    organizationScreen.draw,
    memberForm,
    WORDS,
    async (c, _ctx, access, fields) => {
      requireConfirmed(fields, memberForm(fields), "console.organizations.problem.confirm");
      await access.data.removeMember(organizationIdOf(c), fields.memberId ?? "");
      return back(c, "console.organizations.notice.memberRemoved");
    },
  ),
  resendOrganizationInvitation: formAction(
    UPDATE,
    organizationScreen.draw,
    invitationForm,
    WORDS,
    async (c, _ctx, access, fields) => {
      await access.data.resendInvitation(organizationIdOf(c), fields.invitationId ?? "");
      return back(c, "console.organizations.notice.invitationResent");
    },
  ),
  cancelOrganizationInvitation: formAction(
    UPDATE,
    organizationScreen.draw,
    invitationForm,
    WORDS,
    async (c, _ctx, access, fields) => {
      requireConfirmed(fields, invitationForm(fields), "console.organizations.problem.confirm");
      await access.data.cancelInvitation(organizationIdOf(c), fields.invitationId ?? "");
      return back(c, "console.organizations.notice.invitationCanceled");
    },
  ),
};
