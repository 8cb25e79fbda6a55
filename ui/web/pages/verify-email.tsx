import { Field, HiddenFields, LinkTokenForm, ProblemMessage } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// The landing of a verification (or email-change) link opened in a browser. Opening the link consumes
// nothing: a mail scanner that fetches it only sees this page. The person presses Continue, which posts the token.

export function VerifyEmailPage({ state }: { state: StateOf<"verify-email"> }) {
  const { t } = usePage();
  const href = usePageHref();
  if (state.done)
    return (
      <Shell title="page.title.verifyEmail">
        <Notice>{t("notice.emailVerified")}</Notice>
        <Links>
          <a href={state.redirect ?? state.home}>{t("action.backToApp", { appName: state.branding.appName })}</a>
        </Links>
      </Shell>
    );
  return (
    <Shell title="page.title.verifyEmail">
      <p className="authd-text">{t(state.change ? "notice.emailChangeContinue" : "notice.verifyEmailContinue")}</p>
      <LinkTokenForm
        action={href("/verify-email")}
        token={state.token}
        callbackURL={state.callbackURL}
        label="action.confirmEmail"
      />
    </Shell>
  );
}

/**
 * Typing the code the verification mail carries (while email codes are on) instead of opening its link: a
 * plain form, posted to the page route, which runs the same service as POST /email-otp/verify-email.
 */
export function VerifyEmailCodePage({ state }: { state: StateOf<"verify-email-code"> }) {
  const { t } = usePage();
  const href = usePageHref();
  return (
    <Shell title="page.title.verifyEmailCode">
      <p className="authd-text">{t("notice.verifyEmailCode")}</p>
      <form method="post" action={href("/verify-email/code")} className="authd-form" noValidate>
        <ProblemMessage problem={state.problem} id="authd-form-problem" />
        <HiddenFields />
        <Field
          name="email"
          label="field.email"
          type="email"
          autoComplete="email"
          defaultValue={state.email}
          problem={state.problem}
        />
        <Field
          name="otp"
          label="field.code"
          autoComplete="one-time-code"
          inputMode="numeric"
          problem={state.problem}
          autoFocus={Boolean(state.email)}
        />
        <SubmitButton label="action.confirmWithCode" />
      </form>
      <Links>
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
      </Links>
    </Shell>
  );
}
