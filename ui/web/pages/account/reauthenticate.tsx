import { useEffect, useState } from "react";
import { apiClient, go, problemOf } from "../../api.ts";
import { ButtonForm, PasswordProofField } from "../../components/account-section.tsx";
import { HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { Links, Shell, SubmitButton } from "../../components/shell.tsx";
import { askForPasskey, passkeysSupported } from "../../passkey.ts";
import type { FormProblem, StateOf } from "../../state.ts";

// /account/reauthenticate: prove who you are again before a sensitive change, then back to the section
// (the return address). The password, the second factor and "sign in again" are plain forms that work
// without JavaScript; a passkey, where the account has one, is offered once the page is live.

/** A passkey of the signed-in user: a challenge for them, the browser's assertion, then the page's check. */
async function confirmWithPasskey(state: StateOf<"account-reauthenticate">): Promise<FormProblem | null> {
  const asked = await askForPasskey(apiClient(state.paths.api), new AbortController().signal);
  if (asked.kind === "aborted") return null;
  if (asked.kind === "problem") return asked.problem;
  const body = new URLSearchParams({ csrf: state.csrf, response: JSON.stringify(asked.response) });
  if (state.redirect) body.set("redirect", state.redirect);
  const answer = await fetch(`${state.paths.pages}/reauthenticate/passkey`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  const json = (await answer.json().catch(() => ({}))) as { location?: string; code?: string };
  if (answer.ok && json.location) return go(json.location);
  return problemOf(json.code, answer.status);
}

function PasskeyWay({
  state,
  onProblem,
}: {
  state: StateOf<"account-reauthenticate">;
  onProblem: (p: FormProblem) => void;
}) {
  const { t } = usePage();
  const [available, setAvailable] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setAvailable(state.methods.passkey && passkeysSupported()), [state.methods.passkey]);
  if (!available) return null;
  const start = () => {
    if (busy) return;
    setBusy(true);
    confirmWithPasskey(state)
      .then((problem) => {
        if (problem) onProblem(problem);
        setBusy(false);
      })
      .catch(() => {
        onProblem({ code: "PASSKEY_FAILED" });
        setBusy(false);
      });
  };
  return (
    <button
      type="button"
      className="authd-button authd-button-secondary authd-passkey"
      onClick={start}
      aria-disabled={busy || undefined}
    >
      {t("action.reauthenticatePasskey")}
    </button>
  );
}

export function ReauthenticatePage({ state }: { state: StateOf<"account-reauthenticate"> }) {
  const { t } = usePage();
  const [problem, setProblem] = useState(state.problem);
  const pages = state.paths.pages;
  const back = state.redirect ?? pages;
  return (
    <Shell title="page.title.reauthenticate" subtitle={t("page.subtitle.reauthenticate", { email: state.email })}>
      <ProblemMessage problem={problem} id="authd-form-problem" />
      {state.methods.password ? (
        <form method="post" action={`${pages}/reauthenticate`} className="authd-form">
          <HiddenFields />
          {/* For password managers: the account the password is for (never sent, never editable). */}
          <input type="email" name="username" autoComplete="username" value={state.email} readOnly hidden />
          <PasswordProofField problem={problem} autoFocus />
          <SubmitButton label="action.confirm" />
        </form>
      ) : null}
      <PasskeyWay state={state} onProblem={setProblem} />
      {state.methods.secondFactor ? (
        <form method="post" action={`${pages}/reauthenticate/second-factor`} className="authd-form">
          <p className="authd-hint">{t("notice.reauthenticateSecondFactor")}</p>
          <HiddenFields />
          <SubmitButton label="action.reauthenticateSecondFactor" />
        </form>
      ) : null}
      <ButtonForm action={`${pages}/reauthenticate/sign-in-again`} label="action.signInAgain">
        <p className="authd-hint">{t("notice.reauthenticateSignInAgain")}</p>
      </ButtonForm>
      <Links>
        <a href={back}>{t("link.backToAccount")}</a>
      </Links>
    </Shell>
  );
}
