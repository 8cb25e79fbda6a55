import { apiClient, go, problemOf } from "../api.ts";
import { Field, HiddenFields, ProblemMessage, useSubmission } from "../components/form.tsx";
import { usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { FormProblem, StateOf } from "../state.ts";
import { PasskeyButton, usePasskeySignIn } from "./passkey-sign-in.tsx";
import { isOtherMethod, MailedMethods, SocialMethods } from "./sign-in-methods.tsx";

// Sign in with an email address (or a username, when usernames are on) and a password. The page offers
// what the configuration allows, never what one account has: asking for an identifier and then showing
// that account's methods would tell anyone which addresses have accounts (docs/pages.md).

export function SignInPage({ state }: { state: StateOf<"sign-in"> }) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(state.problem, async (fields) => {
    const client = apiClient(state.paths.api);
    const identifier = (fields.identifier ?? "").trim();
    const rememberMe = fields.rememberMe === "on";
    const answer =
      state.methods.username && !identifier.includes("@")
        ? await client.signIn.username({ username: identifier, password: fields.password ?? "", rememberMe })
        : await client.signIn.email({ email: identifier, password: fields.password ?? "", rememberMe });
    if (answer.error) return problemOf(answer.error.code, answer.error.status);
    if ((answer.data as { twoFactorRedirect?: boolean }).twoFactorRedirect) return go(href("/two-factor"));
    return go(state.redirect ?? state.home);
  });
  const passkey = usePasskeySignIn(state);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    // The mailed methods' buttons post the form to their own routes, as plain forms do.
    if (isOtherMethod(event)) return;
    passkey.stop();
    submission.onSubmit(event);
  };
  return (
    <Shell title="page.title.signIn" subtitle={t("page.subtitle.signIn", { appName: state.branding.appName })}>
      {state.notice === "password-reset" ? <Notice>{t("notice.passwordReset")}</Notice> : null}
      <form method="post" action={href("/sign-in")} className="authd-form" onSubmit={onSubmit} noValidate>
        <ProblemMessage problem={passkey.problem ?? submission.problem} id="authd-form-problem" />
        <HiddenFields />
        <Field
          name="identifier"
          label={state.methods.username ? "field.emailOrUsername" : "field.email"}
          type={state.methods.username ? "text" : "email"}
          autoComplete="username webauthn"
          defaultValue={state.identifier}
          problem={submission.problem}
          autoFocus
        />
        {state.methods.password ? <PasswordPart problem={submission.problem} busy={submission.busy} /> : null}
        <MailedMethods methods={state.methods} />
        <PasskeyButton passkey={passkey} />
      </form>
      <SocialMethods methods={state.methods} />
      <Links>
        {state.methods.password ? <a href={href("/forgot-password")}>{t("link.forgotPassword")}</a> : null}
        {state.methods.signUp ? <a href={href("/sign-up")}>{t("link.signUp")}</a> : null}
      </Links>
    </Shell>
  );
}

function PasswordPart({ problem, busy }: { problem: FormProblem | null; busy: boolean }) {
  const { t } = usePage();
  return (
    <>
      <Field name="password" label="field.password" type="password" autoComplete="current-password" problem={problem} />
      <div className="authd-check">
        <input id="authd-remember" type="checkbox" name="rememberMe" defaultChecked />
        <label htmlFor="authd-remember">{t("field.rememberMe")}</label>
      </div>
      <SubmitButton label="action.signIn" busy={busy} />
    </>
  );
}
