import { errorMessageKey } from "../../shared/messages/index.ts";
import { HiddenFields } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { StateOf } from "../state.ts";

// Pages that only say where the user stands: signed out, signed in, check your mail, an error.

export function SignedOutPage() {
  const { t } = usePage();
  const href = usePageHref();
  return (
    <Shell title="page.title.signedOut">
      <Notice>{t("notice.signedOut")}</Notice>
      <Links>
        <a href={href("/sign-in")}>{t("action.signIn")}</a>
      </Links>
    </Shell>
  );
}

export function SignedInPage({ state }: { state: StateOf<"signed-in"> }) {
  const { t } = usePage();
  const href = usePageHref();
  return (
    <Shell title="page.title.signedIn">
      <Notice>{t("notice.signedInAs", { email: state.email })}</Notice>
      <form method="post" action={href("/sign-out")} className="authd-form">
        <HiddenFields />
        <SubmitButton label="action.signOut" />
      </form>
      <Links>
        <a href={state.returnTo}>{t("action.backToApp", { appName: state.branding.appName })}</a>
        <a href={state.paths.pages}>{t("link.account")}</a>
      </Links>
    </Shell>
  );
}

const CHECK_MAIL_NOTICES = {
  reset: "notice.checkMailReset",
  verify: "notice.checkMailVerify",
  "magic-link": "notice.checkMailMagicLink",
} as const;

export function CheckMailPage({ state }: { state: StateOf<"check-mail"> }) {
  const { t } = usePage();
  const href = usePageHref();
  return (
    <Shell title="page.title.checkMail">
      <Notice>{t(CHECK_MAIL_NOTICES[state.kind])}</Notice>
      <Links>
        {state.codeEntry ? (
          <a href={href(state.kind === "magic-link" ? "/email-code" : "/verify-email/code")}>
            {t("link.verifyEmailCode")}
          </a>
        ) : null}
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
      </Links>
    </Shell>
  );
}

export function ErrorPage({ state }: { state: StateOf<"error"> }) {
  const { t } = usePage();
  const href = usePageHref();
  return (
    <Shell title="page.title.error">
      <p className="authd-problem-text" role="alert">
        {t(errorMessageKey(state.code), { appName: state.branding.appName })}
      </p>
      <p className="authd-hint">{t("notice.errorCode", { code: state.code })}</p>
      <Links>
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
        <a href={state.home}>{t("action.backToApp", { appName: state.branding.appName })}</a>
      </Links>
    </Shell>
  );
}
