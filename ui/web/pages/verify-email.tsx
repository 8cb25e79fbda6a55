import { LinkTokenForm } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell } from "../components/shell.tsx";
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
