import { useId } from "react";
import { toDay } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import {
  type ConsoleOrganizationInvitation,
  type ConsoleOrganizationMember,
  type ConsoleOrganizationState,
  consoleHref,
  mayDo,
} from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConfirmBox, FormProblemNote, FormProblemSummary, formAnchor } from "./form-notes.tsx";
import { ActionForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// One organization: its members (role changed or removed by an admin holding organization:update), its
// invitations (sent again or canceled) and its teams. Every form is a plain POST; the organization keeps an
// owner, which the server says beside the member's row when a change would leave it without one.

export function ConsoleOrganizationScreen({ state }: { state: ConsoleOrganizationState }) {
  const { t } = useConsole();
  const { organization } = state;
  return (
    <ConsoleShell screen="organizations" title={organization.name}>
      <p className="authd-hint">
        <a href={consoleHref("/organizations")}>{t("console.organizations.back")}</a>
        {" · "}
        {t("console.organizations.slug", { slug: organization.slug })}
      </p>
      <FormProblemSummary />
      <Members state={state} />
      <Invitations state={state} />
      <Teams state={state} />
    </ConsoleShell>
  );
}

const path = (state: ConsoleOrganizationState, action: string) =>
  `/organizations/${encodeURIComponent(state.organization.id)}/${action}`;

function Members({ state }: { state: ConsoleOrganizationState }) {
  const { t, frame } = useConsole();
  const mayUpdate = mayDo(frame, "organization", "update");
  return (
    <section className="authd-console-part" aria-labelledby="authd-members">
      <h2 id="authd-members" className="authd-section-title">
        {t("console.organizations.members")}
      </h2>
      {state.members.length === 0 ? (
        <p className="authd-hint">{t("console.organizations.noMembers")}</p>
      ) : (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.organizations.column.member")}</th>
              <th scope="col">{t("console.organizations.column.role")}</th>
              <th scope="col" className="authd-console-nowrap">
                {t("console.organizations.column.joined")}
              </th>
              {mayUpdate ? <th scope="col">{t("console.actions")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {state.members.map((member) => (
              <MemberRow key={member.id} state={state} member={member} mayUpdate={mayUpdate} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function MemberRow({
  state,
  member,
  mayUpdate,
}: {
  state: ConsoleOrganizationState;
  member: ConsoleOrganizationMember;
  mayUpdate: boolean;
}) {
  const { t, frame } = useConsole();
  const selectId = useId();
  const form = `member-${member.id}`;
  const userLink = mayDo(frame, "user", "get") ? consoleHref(`/users/${encodeURIComponent(member.userId)}`) : null;
  return (
    <tr id={formAnchor(form)}>
      <td>
        {userLink ? <a href={userLink}>{member.email}</a> : member.email}
        {member.name ? <span className="authd-console-secondary">{member.name}</span> : null}
        <FormProblemNote form={form} />
      </td>
      <td>
        <span className="authd-console-role">{member.role}</span>
        {mayUpdate ? (
          <ActionForm
            action={path(state, "member-role")}
            fields={{ memberId: member.id }}
            label="console.organizations.changeRole"
          >
            <label htmlFor={selectId} className="authd-visually-hidden">
              {t("console.organizations.roleLabel", { email: member.email })}
            </label>
            <select id={selectId} name="role" className="authd-input authd-console-select" defaultValue={member.role}>
              {state.roles.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </ActionForm>
        ) : null}
      </td>
      <td className="authd-console-nowrap">{toDay(member.createdAt)}</td>
      {mayUpdate ? (
        <td>
          <ActionForm
            action={path(state, "remove-member")}
            fields={{ memberId: member.id }}
            label="console.organizations.removeMember"
            danger
          >
            <ConfirmBox
              label={t("console.organizations.confirmRemove", {
                email: member.email,
                organization: state.organization.name,
              })}
            />
          </ActionForm>
        </td>
      ) : null}
    </tr>
  );
}

function Invitations({ state }: { state: ConsoleOrganizationState }) {
  const { t, frame } = useConsole();
  const mayUpdate = mayDo(frame, "organization", "update");
  return (
    <section className="authd-console-part" aria-labelledby="authd-invitations">
      <h2 id="authd-invitations" className="authd-section-title">
        {t("console.organizations.invitations")}
      </h2>
      {state.invitations.length === 0 ? (
        <p className="authd-hint">{t("console.organizations.noInvitations")}</p>
      ) : (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.organizations.column.invitee")}</th>
              <th scope="col" className="authd-console-nowrap">
                {t("console.organizations.column.role")}
              </th>
              <th scope="col" className="authd-console-nowrap">
                {t("console.organizations.column.status")}
              </th>
              <th scope="col" className="authd-console-nowrap">
                {t("console.organizations.column.expires")}
              </th>
              {mayUpdate ? <th scope="col">{t("console.actions")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {state.invitations.map((invitation) => (
              <InvitationRow key={invitation.id} state={state} invitation={invitation} mayUpdate={mayUpdate} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function InvitationRow({
  state,
  invitation,
  mayUpdate,
}: {
  state: ConsoleOrganizationState;
  invitation: ConsoleOrganizationInvitation;
  mayUpdate: boolean;
}) {
  const { t } = useConsole();
  const form = `invitation-${invitation.id}`;
  const status = invitation.expired ? "expired" : invitation.status;
  const pending = invitation.status === "pending";
  return (
    <tr id={formAnchor(form)}>
      <td>
        {invitation.email}
        <FormProblemNote form={form} />
      </td>
      <td className="authd-console-nowrap">{invitation.role}</td>
      <td className="authd-console-nowrap">{t(`console.organizations.status.${status}` as AnyMessageKey)}</td>
      <td className="authd-console-nowrap">{toDay(invitation.expiresAt)}</td>
      {mayUpdate ? (
        <td>
          {pending ? (
            <ActionForm
              action={path(state, "resend-invitation")}
              fields={{ invitationId: invitation.id }}
              label="console.organizations.resend"
            />
          ) : null}
          {pending && !invitation.expired ? (
            <ActionForm
              action={path(state, "cancel-invitation")}
              fields={{ invitationId: invitation.id }}
              label="console.organizations.cancelInvitation"
              danger
            >
              <ConfirmBox label={t("console.organizations.confirmCancel", { email: invitation.email })} />
            </ActionForm>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

function Teams({ state }: { state: ConsoleOrganizationState }) {
  const { t, state: page } = useConsole();
  const number = new Intl.NumberFormat(page.locale);
  return (
    <section className="authd-console-part" aria-labelledby="authd-teams">
      <h2 id="authd-teams" className="authd-section-title">
        {t("console.organizations.teams")}
      </h2>
      {state.teams.length === 0 ? (
        <p className="authd-hint">{t("console.organizations.noTeams")}</p>
      ) : (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.organizations.column.team")}</th>
              <th scope="col">{t("console.organizations.column.members")}</th>
              <th scope="col">{t("console.organizations.column.created")}</th>
            </tr>
          </thead>
          <tbody>
            {state.teams.map((team) => (
              <tr key={team.id}>
                <td>{team.name}</td>
                <td className="authd-console-nowrap">{number.format(team.memberCount)}</td>
                <td className="authd-console-nowrap">{toDay(team.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
