import { HiddenFields } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// The landing of a verification link opened in a browser. Opening the link consumes nothing: a mail
// scanner that fetches it only sees this page. The person presses Continue, which posts the token.

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
      <p className="authd-text">{t("notice.verifyEmailContinue")}</p>
      <form method="post" action={href("/verify-email")} className="authd-form">
        <HiddenFields />
        <input type="hidden" name="token" value={state.token} />
        <SubmitButton label="action.confirmEmail" />
      </form>
    </Shell>
  );
}
