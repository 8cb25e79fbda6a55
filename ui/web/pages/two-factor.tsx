import { useState } from "react";
import type { AuthResult } from "../../../src/client/index.ts";
import { apiClient, go } from "../api.ts";
import { Field, HiddenFields, ProblemMessage, useSubmission } from "../components/form.tsx";
import { type MessageKey, usePage, usePageHref } from "../components/page-context.tsx";
import { Links, Notice, Shell, SubmitButton } from "../components/shell.tsx";
import type { FormProblem, StateOf, TwoFactorMethod } from "../state.ts";
import { twoFactorProblem } from "../two-factor.ts";

// The second-factor step of a sign-in: one way at a time (an authenticator code, a code by mail, a backup
// code), each a form that posts to its page route, or with JavaScript goes through the client to the same
// API route; "trust this browser" rides along with the code. Links switch to the other ways offered.

type State = StateOf<"two-factor">;

const problemOfAnswer = (answer: AuthResult<unknown>): FormProblem | null =>
  answer.error ? twoFactorProblem(answer.error.code ?? "unknown", answer.error.status) : null;

const CODE_FORMS = {
  totp: { path: "/two-factor", label: "field.authenticatorCode", autoComplete: "one-time-code", numeric: true },
  mail: { path: "/two-factor/mailed-code", label: "field.mailedCode", autoComplete: "one-time-code", numeric: true },
  backup: { path: "/two-factor/backup-code", label: "field.backupCode", autoComplete: "off", numeric: false },
} as const satisfies Record<
  TwoFactorMethod,
  { path: string; label: MessageKey; autoComplete: string; numeric: boolean }
>;

/** A code and "trust this browser": posted to the method's page route, or sent to its API route. */
function CodeForm({ state, method }: { state: State; method: TwoFactorMethod }) {
  const { t } = usePage();
  const href = usePageHref();
  const form = CODE_FORMS[method];
  const submission = useSubmission(state.problem, async (fields) => {
    const input = { code: (fields.code ?? "").trim(), trustDevice: fields.trustDevice === "on" };
    const client = apiClient(state.paths.api).twoFactor;
    const answer =
      method === "totp"
        ? await client.verifyTotp(input)
        : method === "mail"
          ? await client.verifyOtp(input)
          : await client.verifyBackupCode(input);
    return problemOfAnswer(answer) ?? go(state.redirect ?? state.home);
  });
  return (
    <form method="post" action={href(form.path)} className="authd-form" onSubmit={submission.onSubmit} noValidate>
      <ProblemMessage problem={submission.problem} id="authd-form-problem" />
      <HiddenFields />
      <Field
        name="code"
        label={form.label}
        autoComplete={form.autoComplete}
        inputMode={form.numeric ? "numeric" : undefined}
        hint={t(`hint.${method}Code`)}
        problem={submission.problem}
        maxLength={64}
        autoFocus
      />
      <div className="authd-check">
        <input id="authd-trust-device" type="checkbox" name="trustDevice" />
        <label htmlFor="authd-trust-device">{t("field.trustDevice")}</label>
      </div>
      <SubmitButton label="action.verify" busy={submission.busy} />
    </form>
  );
}

/** A code by mail: a button that sends it, then the field for it (and a button to send a new one). */
function MailMethod({ state }: { state: State }) {
  const { t } = usePage();
  const href = usePageHref();
  const [sent, setSent] = useState(state.mailSent);
  const sending = useSubmission(state.mailSent ? null : state.problem, async () => {
    const problem = problemOfAnswer(await apiClient(state.paths.api).twoFactor.sendOtp({}));
    if (!problem) setSent(true);
    return problem;
  });
  const sendForm = (label: MessageKey, className: string, id: string) => (
    <form method="post" action={href("/two-factor/send-code")} className="authd-form" onSubmit={sending.onSubmit}>
      <ProblemMessage problem={sending.problem} id={id} />
      <HiddenFields />
      <button type="submit" className={className} aria-disabled={sending.busy || undefined}>
        {t(label)}
      </button>
    </form>
  );
  if (!sent)
    return (
      <>
        <p className="authd-text">{t("notice.mailCodeExplain")}</p>
        {sendForm("action.sendCode", "authd-button", "authd-form-problem")}
      </>
    );
  return (
    <>
      <Notice>{t("notice.mailCodeSent")}</Notice>
      <CodeForm state={state} method="mail" />
      {sendForm("action.sendNewCode", "authd-button authd-button-secondary", "authd-send-problem")}
    </>
  );
}

const SWITCH_LABELS: Record<TwoFactorMethod, MessageKey> = {
  totp: "link.useAuthenticator",
  mail: "link.useMailedCode",
  backup: "link.useBackupCode",
};

export function TwoFactorPage({ state }: { state: State }) {
  const { t } = usePage();
  const href = usePageHref();
  const others = (Object.keys(SWITCH_LABELS) as TwoFactorMethod[]).filter(
    (method) => method !== state.method && state.methods[method],
  );
  return (
    <Shell
      title="page.title.twoFactor"
      subtitle={t(`page.subtitle.twoFactor.${state.method}`, { appName: state.branding.appName })}
    >
      {state.method === "mail" ? <MailMethod state={state} /> : <CodeForm state={state} method={state.method} />}
      <Links>
        {others.map((method) => (
          <a key={method} href={href("/two-factor", { method })}>
            {t(SWITCH_LABELS[method])}
          </a>
        ))}
        <a href={href("/sign-in")}>{t("action.backToSignIn")}</a>
      </Links>
    </Shell>
  );
}
