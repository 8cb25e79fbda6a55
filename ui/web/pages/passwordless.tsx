import { apiClient, go, problemOf } from "../api.ts";
import { Field, HiddenFields, ProblemMessage, useSubmission } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// Signing in without a password: the landing of a mailed sign-in link (opening it consumes nothing; the
// Continue button posts the token), and the page where a mailed code is typed.

export function MagicLinkPage({ state }: { state: StateOf<"magic-link"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const targets = {
    callbackURL: state.callbackURL,
    newUserCallbackURL: state.newUserCallbackURL,
    errorCallbackURL: state.errorCallbackURL,
  };
  return (
    <Shell title="page.title.magicLink">
      <p className="authd-text">{t("notice.magicLinkContinue", { appName: state.branding.appName })}</p>
      <form method="post" action={href("/magic-link/verify")} className="authd-form">
        <HiddenFields />
        <input type="hidden" name="token" value={state.token} />
        {Object.entries(targets).map(([name, value]) =>
          value ? <input key={name} type="hidden" name={name} value={value} /> : null,
        )}
        <SubmitButton label="action.continue" />
      </form>
    </Shell>
  );
}

export function EmailCodePage({ state }: { state: StateOf<"email-code"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(state.problem, async (fields) => {
    const answer = await apiClient(state.paths.api).$fetch<{ twoFactorRedirect?: boolean }>("/sign-in/email-otp", {
      method: "POST",
      body: { email: state.email, otp: (fields.otp ?? "").trim() },
    });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    if (answer.data?.twoFactorRedirect) return go(href("/two-factor"));
    return go(state.returnTo);
  });
  return (
    <Shell title="page.title.emailCode">
      <Notice>{t("notice.codeSent", { email: state.email })}</Notice>
      <form method="post" action={href("/email-code")} className="authd-form" onSubmit={submission.onSubmit} noValidate>
        <ProblemMessage problem={submission.problem} id="authd-form-problem" />
        <HiddenFields />
        <input type="hidden" name="email" value={state.email} />
        <Field
          name="otp"
          label="field.code"
          autoComplete="one-time-code"
          inputMode="numeric"
          problem={submission.problem}
          autoFocus
        />
        <SubmitButton label="action.signIn" busy={submission.busy} />
      </form>
      <Links>
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
      </Links>
    </Shell>
  );
}
