import { toDay } from "../../../shared/dates.ts";
import { apiClient } from "../../api.ts";
import { type AccountActions, ItemForm, useAccountActions } from "../../components/account-actions.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { ProblemMessage } from "../../components/form.tsx";
import { type MessageKey, usePage } from "../../components/page-context.tsx";
import type { InvitationView, MembershipView, StateOf } from "../../state.ts";

// The user's organizations (role, the active one marked; make another active, leave one) and the
// invitations to their address (accept, decline). Every action is a small form with the item's id; with
// JavaScript it goes through the organization routes of the API and the section is loaded again.

type OrganizationsState = StateOf<"account-organizations">;
type Submit = (event: React.FormEvent<HTMLFormElement>) => void;
type Forms = Record<"switch" | "leave" | "accept" | "decline", Submit>;

export function AccountOrganizationsPage({ state }: { state: OrganizationsState }) {
  const actions = useAccountActions("organizations");
  const organization = () => apiClient(state.paths.api).organization;
  const forms: Forms = {
    switch: actions.act(
      (fields) => organization().setActive({ organizationId: fields.organizationId }),
      () => actions.reload("notice.account.organizationSwitched"),
    ),
    leave: actions.act(
      (fields) => organization().leave({ organizationId: fields.organizationId }),
      () => actions.reload("notice.account.organizationLeft"),
    ),
    accept: actions.act(
      (fields) => organization().acceptInvitation({ invitationId: fields.invitationId }),
      () => actions.reload("notice.account.invitationAccepted"),
    ),
    decline: actions.act(
      (fields) => organization().rejectInvitation({ invitationId: fields.invitationId }),
      () => actions.reload("notice.account.invitationDeclined"),
    ),
  };
  return (
    <AccountShell section="organizations" account={state.account}>
      <ProblemMessage problem={actions.problem} id="authd-form-problem" />
      <ListSection id="authd-memberships" title="account.organizations.memberships">
        {state.memberships.length === 0 ? <Empty text="account.organizations.none" /> : null}
        <ul className="authd-items">
          {state.memberships.map((membership) => (
            <Membership key={membership.organizationId} membership={membership} forms={forms} actions={actions} />
          ))}
        </ul>
      </ListSection>
      <ListSection id="authd-invitations" title="account.organizations.invitations">
        {state.invitations.length === 0 ? <Empty text="account.organizations.noInvitations" /> : null}
        <ul className="authd-items">
          {state.invitations.map((invitation) => (
            <Invitation key={invitation.id} invitation={invitation} forms={forms} actions={actions} />
          ))}
        </ul>
      </ListSection>
    </AccountShell>
  );
}

function ListSection({ id, title, children }: { id: string; title: MessageKey; children: React.ReactNode }) {
  const { t } = usePage();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="authd-subheading">
        {t(title)}
      </h2>
      {children}
    </section>
  );
}

function Empty({ text }: { text: MessageKey }) {
  const { t } = usePage();
  return <p className="authd-text">{t(text)}</p>;
}

const actionPath = (pages: string, path: string) => `${pages}/organizations/${path}`;

function Membership(props: { membership: MembershipView; forms: Forms; actions: AccountActions }) {
  const { t, state } = usePage();
  const { membership, forms, actions } = props;
  const fields = { organizationId: membership.organizationId };
  const details = [
    t("account.organizations.role", { role: membership.role }),
    membership.active ? t("account.organizations.active") : null,
  ];
  const common = { fields, item: membership.name, busy: actions.busy };
  return (
    <li className="authd-item">
      <div className="authd-item-text">
        <p className="authd-item-name">{membership.name}</p>
        <p className="authd-item-detail">{details.filter(Boolean).join(" · ")}</p>
      </div>
      <div className="authd-item-action">
        {membership.active ? null : (
          <ItemForm
            action={actionPath(state.paths.pages, "switch")}
            onSubmit={forms.switch}
            label="action.switchOrganization"
            {...common}
          />
        )}
        <ItemForm
          action={actionPath(state.paths.pages, "leave")}
          onSubmit={forms.leave}
          label="action.leaveOrganization"
          {...common}
        />
      </div>
    </li>
  );
}

function Invitation(props: { invitation: InvitationView; forms: Forms; actions: AccountActions }) {
  const { t, state } = usePage();
  const { invitation, forms, actions } = props;
  const { organizationName: organization, role, inviterEmail } = invitation;
  const common = { fields: { invitationId: invitation.id }, item: organization, busy: actions.busy };
  return (
    <li className="authd-item">
      <div className="authd-item-text">
        <p className="authd-item-name">
          {inviterEmail
            ? t("notice.invitation", { inviter: inviterEmail, organization, role })
            : t("account.organizations.invited", { organization, role })}
        </p>
        <p className="authd-item-detail">
          {t("account.organizations.answerBy", { date: toDay(invitation.expiresAt) ?? "" })}
        </p>
      </div>
      <div className="authd-item-action">
        <ItemForm
          action={actionPath(state.paths.pages, "accept")}
          onSubmit={forms.accept}
          label="action.acceptInvitation"
          secondary={false}
          {...common}
        />
        <ItemForm
          action={actionPath(state.paths.pages, "decline")}
          onSubmit={forms.decline}
          label="action.rejectInvitation"
          {...common}
        />
      </div>
    </li>
  );
}
