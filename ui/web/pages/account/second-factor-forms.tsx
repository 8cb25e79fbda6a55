import type { AuthClientError } from "../../../../src/client/index.ts";
import { reauthenticateIfStale } from "../../api.ts";
import { Field, HiddenFields, ProblemMessage, useSubmission } from "../../components/form.tsx";
import { type MessageKey, usePage, usePageHref } from "../../components/page-context.tsx";
import { SubmitButton } from "../../components/shell.tsx";
import { when } from "../../components/when.ts";
import type { FormProblem, SecondFactorForm, StateOf } from "../../state.ts";
import { accountTwoFactorProblem } from "../../two-factor.ts";

// The second-factor section's forms. Each posts to its page route (account-second-factor-page.ts) without
// JavaScript; with it, `send` takes the fields to the API through the client instead, and a sign-in older
// than account.freshAge goes through re-authentication and back here.

type State = StateOf<"account-second-factor">;

export const SECTION_PATH = "/second-factor";

/** The problem the server drew for `form`, if that is the form that was sent. */
export const problemOf = (state: State, form: SecondFactorForm): FormProblem | null =>
  state.secondFactor.failedForm === form ? state.problem : null;

/** An API refusal as the form's problem, or null once the browser is on its way to re-authenticate. */
export function refusalOf(state: State, error: AuthClientError): FormProblem | null {
  if (reauthenticateIfStale(error.code, state.paths.pages, `${state.paths.pages}${SECTION_PATH}`)) return null;
  return accountTwoFactorProblem(error.code ?? "unknown", error.status);
}

/** The section again with a notice (a full load: the next state is the server's). */
export const sectionWithNotice = (state: State, notice: string) =>
  `${state.paths.pages}${SECTION_PATH}?${new URLSearchParams({ notice })}`;

interface PasswordFormProps {
  state: State;
  form: SecondFactorForm;
  button: MessageKey;
  hint: MessageKey;
  secondary?: boolean;
  /** With JavaScript: send the password to the API (else the form posts to its page route, as without). */
  send?: (password: string) => Promise<FormProblem | null>;
}

/** A change confirmed with the account's password. */
export function PasswordForm({ state, form, button, hint, secondary, send }: PasswordFormProps) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(problemOf(state, form), (fields) =>
    send ? send(fields.password ?? "") : Promise.resolve(null),
  );
  return (
    <form
      method="post"
      action={href(`${SECTION_PATH}/${form}`)}
      className="authd-form"
      onSubmit={send ? submission.onSubmit : undefined}
      noValidate
    >
      <ProblemMessage problem={submission.problem} id={`authd-problem-${form}`} />
      <HiddenFields />
      {/* Whose password this is, for password managers (never read by the server). */}
      <input type="email" name="username" autoComplete="username" value={state.account.user.email} readOnly hidden />
      <Field
        name="password"
        label="field.password"
        type="password"
        autoComplete="current-password"
        hint={t(hint)}
        problem={submission.problem}
      />
      <button
        type="submit"
        className={secondary ? "authd-button authd-button-secondary" : "authd-button"}
        aria-disabled={submission.busy || undefined}
      >
        {t(button)}
      </button>
    </form>
  );
}

/** The first code from the app, which turns two-factor on. */
export function ConfirmForm({ state, send }: { state: State; send: (code: string) => Promise<FormProblem | null> }) {
  const { t } = usePage();
  const href = usePageHref();
  const submission = useSubmission(problemOf(state, "confirm"), (fields) => send((fields.code ?? "").trim()));
  return (
    <form
      method="post"
      action={href(`${SECTION_PATH}/confirm`)}
      className="authd-form"
      onSubmit={submission.onSubmit}
      noValidate
    >
      <ProblemMessage problem={submission.problem} id="authd-problem-confirm" />
      <HiddenFields />
      <Field
        name="code"
        label="field.authenticatorCode"
        autoComplete="one-time-code"
        inputMode="numeric"
        hint={t("hint.totpCode")}
        problem={submission.problem}
        maxLength={64}
      />
      <SubmitButton label="account.secondFactor.turnOn" busy={submission.busy} />
    </form>
  );
}

/** The browsers that skip the code at sign-in, each with a button that forgets it (a plain form: no API route). */
export function TrustedBrowsers({ state }: { state: State }) {
  const { t } = usePage();
  const href = usePageHref();
  const browsers = state.secondFactor.trustedBrowsers;
  return (
    <section className="authd-account-part" aria-labelledby="authd-browsers-title">
      <h2 id="authd-browsers-title" className="authd-subtitle-heading">
        {t("account.secondFactor.browsersTitle")}
      </h2>
      <ProblemMessage problem={problemOf(state, "forget-browser")} id="authd-problem-forget-browser" />
      <p className="authd-text">
        {t(browsers.length === 0 ? "account.secondFactor.noBrowsers" : "account.secondFactor.browsersExplain")}
      </p>
      <ul className="authd-list">
        {browsers.map((browser) => (
          <li key={browser.id} className="authd-list-item">
            <div id={`authd-browser-${browser.id}`}>
              <p className="authd-list-title">
                {t(browser.current ? "account.secondFactor.thisBrowser" : "account.secondFactor.otherBrowser")}
              </p>
              <p className="authd-hint">
                {t("account.secondFactor.lastSignIn", { date: when(browser.lastSignInAt) })}
                <br />
                {t("account.secondFactor.trustedUntil", { date: when(browser.expiresAt) })}
              </p>
            </div>
            <form method="post" action={href(`${SECTION_PATH}/forget-browser`)}>
              <HiddenFields />
              <input type="hidden" name="id" value={browser.id} />
              <button
                type="submit"
                className="authd-button authd-button-secondary"
                aria-describedby={`authd-browser-${browser.id}`}
              >
                {t("account.secondFactor.forget")}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </section>
  );
}
