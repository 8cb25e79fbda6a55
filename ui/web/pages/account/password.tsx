import { PASSWORD_FIELDS } from "../../account.ts";
import { type SectionOutcome, useAccountSection } from "../../components/account-section.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { Field, HiddenFields, NewPasswordField, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { SubmitButton } from "../../components/shell.tsx";
import type { StateOf } from "../../state.ts";

// The password section (/account/password): change the password, or set a first one for an account that
// has none. With JavaScript the change goes through change-password; setting a first password always posts
// the form (the API's set-password is a server call, not the user's).

export function AccountPasswordPage({ state }: { state: StateOf<"account-password"> }) {
  const { t } = usePage();
  const section = useAccountSection("password", state);
  const { problem, busy } = section;
  const pages = state.paths.pages;
  const newPassword = (
    <NewPasswordField name="newPassword" label="field.newPassword" rules={state.passwordRules} problem={problem} />
  );

  const change = section.submit(async (fields, form): Promise<SectionOutcome> => {
    const revokeOtherSessions = fields.revokeOtherSessions === "on";
    const answer = await section.client().changePassword({
      currentPassword: fields.currentPassword ?? "",
      newPassword: fields.newPassword ?? "",
      revokeOtherSessions,
    });
    if (answer.error) return section.refusal(answer.error, PASSWORD_FIELDS);
    form.reset();
    return {
      notice: revokeOtherSessions ? "notice.account.passwordChangedSignedOut" : "notice.account.passwordChanged",
    };
  });

  return (
    <AccountShell section="password" account={section.account}>
      <ProblemMessage problem={problem} id="authd-form-problem" />
      {state.hasPassword ? (
        <form method="post" action={`${pages}/password`} className="authd-form" onSubmit={change} noValidate>
          <HiddenFields />
          <Field
            name="currentPassword"
            label="field.currentPassword"
            type="password"
            autoComplete="current-password"
            problem={problem}
          />
          {newPassword}
          <div className="authd-check">
            <input id="authd-revoke-others" type="checkbox" name="revokeOtherSessions" />
            <label htmlFor="authd-revoke-others">{t("field.revokeOtherSessions")}</label>
          </div>
          <SubmitButton label="action.changePassword" busy={busy} />
        </form>
      ) : (
        <form method="post" action={`${pages}/password/set`} className="authd-form">
          <p className="authd-hint">{t("account.password.none")}</p>
          <HiddenFields />
          {newPassword}
          <SubmitButton label="action.setFirstPassword" />
        </form>
      )}
    </AccountShell>
  );
}
