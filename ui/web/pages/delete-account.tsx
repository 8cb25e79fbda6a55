import { LinkTokenForm } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// The landing of a delete-account link opened in a browser. Opening the link deletes nothing: a mail
// scanner that fetches it only sees this page. The signed-in owner confirms with the button, which posts
// the token; a browser that is not signed in is asked to sign in first and comes back here.

export function DeleteAccountPage({ state }: { state: StateOf<"delete-account"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const backToApp = (
    <a href={state.redirect ?? state.callbackURL ?? state.home}>
      {t("action.backToApp", { appName: state.branding.appName })}
    </a>
  );
  if (state.done)
    return (
      <Shell title="page.title.deleteAccount">
        <Notice>{t("notice.accountDeleted")}</Notice>
        <Links>
          <a href={state.home}>{t("action.backToApp", { appName: state.branding.appName })}</a>
        </Links>
      </Shell>
    );
  if (state.email === null)
    return (
      <Shell title="page.title.deleteAccount">
        <Notice>{t("notice.deleteAccountSignIn")}</Notice>
        <Links>
          <a href={state.signIn ?? href("/sign-in")}>{t("action.signIn")}</a>
          {backToApp}
        </Links>
      </Shell>
    );
  return (
    <Shell title="page.title.deleteAccount">
      <p className="authd-text">{t("notice.deleteAccountConfirm", { email: state.email })}</p>
      <LinkTokenForm
        action={href("/delete-account")}
        token={state.token}
        callbackURL={state.callbackURL}
        label="action.deleteAccount"
      />
      <Links>{backToApp}</Links>
    </Shell>
  );
}
