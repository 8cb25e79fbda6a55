import { PASSWORD_PROOF_FIELDS } from "../../account.ts";
import { go } from "../../api.ts";
import { PasswordProofField, type SectionOutcome, useAccountSection } from "../../components/account-section.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { SubmitButton } from "../../components/shell.tsx";
import type { StateOf } from "../../state.ts";

// The delete section (/account/delete): the password (for an account that has one) and a tick that the
// person means it. With deleteUser.requireVerification a link is mailed and its landing deletes; otherwise
// the account goes at once. With JavaScript the request goes through delete-user.

export function AccountDeletePage({ state }: { state: StateOf<"account-delete"> }) {
  const { t } = usePage();
  const section = useAccountSection("delete", state);
  const { problem, busy } = section;
  const pages = state.paths.pages;
  const done = `${pages}/delete-account?done=1`;

  const request = section.submit(async (fields, form): Promise<SectionOutcome> => {
    if (fields.confirm !== "on") return { problem: { code: "CONFIRM_DELETION", field: "confirm" } };
    const password = fields.password ?? "";
    if (state.hasPassword && !password) return { problem: { code: "REQUIRED", field: "password" } };
    const answer = await section.client().deleteUser({
      ...(password ? { password } : {}),
      callbackURL: `${window.location.origin}${done}`,
    });
    if (answer.error) {
      // A session too old to delete without a password: a new sign-in lifts it, as SESSION_NOT_FRESH.
      const expired = answer.error.status === 403 && answer.error.code?.startsWith("SESSION_EXPIRED");
      return section.refusal(
        expired ? { ...answer.error, code: "SESSION_IS_NOT_FRESH" } : answer.error,
        PASSWORD_PROOF_FIELDS,
      );
    }
    if (answer.data.message === "User deleted") return go(done);
    form.reset();
    return { notice: "notice.account.deletionMailed" };
  });

  const confirmProblem = problem?.field === "confirm" ? problem : null;
  return (
    <AccountShell section="delete" account={section.account}>
      <ProblemMessage problem={problem} id="authd-form-problem" />
      <p>{t("account.delete.intro")}</p>
      <p className="authd-hint">
        {state.mailsConfirmation
          ? t("account.delete.mailed", { email: section.account.user.email })
          : t("account.delete.now")}
      </p>
      <form method="post" action={`${pages}/delete`} className="authd-form" onSubmit={request} noValidate>
        <HiddenFields />
        {state.hasPassword ? <PasswordProofField problem={problem} /> : null}
        <div className="authd-check">
          <input
            id="authd-confirm-deletion"
            type="checkbox"
            name="confirm"
            required
            aria-invalid={confirmProblem ? true : undefined}
            aria-describedby={confirmProblem ? "authd-confirm-deletion-error" : undefined}
          />
          <label htmlFor="authd-confirm-deletion">{t("field.confirmDeletion")}</label>
        </div>
        {confirmProblem ? (
          <p id="authd-confirm-deletion-error" className="authd-field-error">
            {t("error.CONFIRM_DELETION")}
          </p>
        ) : null}
        <SubmitButton label="action.deleteAccount" busy={busy} />
      </form>
    </AccountShell>
  );
}
