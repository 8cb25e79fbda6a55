import { apiClient, go, problemOf } from "../api.ts";
import { Field, HiddenFields, NewPasswordField, ProblemMessage, useSubmission } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// Forgot password (ask for a link) and reset password (the landing of that link: choose a new one).

export function ForgotPasswordPage({ state }: { state: StateOf<"forgot-password"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(state.problem, async (fields) => {
    const redirectTo = `${window.location.origin}${href("/reset-password")}`;
    const answer = await apiClient(state.paths.api).requestPasswordReset({
      email: (fields.email ?? "").trim(),
      redirectTo,
    });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    return go(href("/check-mail", { kind: "reset" }));
  });
  return (
    <Shell title="page.title.forgotPassword">
      <form
        method="post"
        action={href("/forgot-password")}
        className="authd-form"
        onSubmit={submission.onSubmit}
        noValidate
      >
        <ProblemMessage problem={submission.problem} id="authd-form-problem" />
        <HiddenFields />
        <Field
          name="email"
          label="field.email"
          type="email"
          autoComplete="email"
          defaultValue={state.email}
          problem={submission.problem}
          autoFocus
        />
        <SubmitButton label="action.sendResetLink" busy={submission.busy} />
      </form>
      <Links>
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
      </Links>
    </Shell>
  );
}

export function ResetPasswordPage({ state }: { state: StateOf<"reset-password"> }) {
  const href = usePageHref();
  const submission = useSubmission(state.problem, async (fields) => {
    const answer = await apiClient(state.paths.api).resetPassword({
      token: state.token,
      newPassword: fields.password ?? "",
    });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    return go(href("/sign-in", { notice: "password-reset" }));
  });
  return (
    <Shell title="page.title.resetPassword">
      <form
        method="post"
        action={href("/reset-password")}
        className="authd-form"
        onSubmit={submission.onSubmit}
        noValidate
      >
        <ProblemMessage problem={submission.problem} id="authd-form-problem" />
        <HiddenFields />
        <input type="hidden" name="token" value={state.token} />
        <NewPasswordField
          name="password"
          label="field.newPassword"
          rules={state.passwordRules}
          problem={submission.problem}
          autoFocus
        />
        <SubmitButton label="action.setPassword" busy={submission.busy} />
      </form>
    </Shell>
  );
}
