import { useState } from "react";
import type { AuthResult } from "../../../../src/client/index.ts";
import { apiClient, problemOf, reauthenticateIfStale } from "../../api.ts";
import { Field, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { when } from "../../components/when.ts";
import type { FormProblem, PasskeyItem, StateOf } from "../../state.ts";

// One passkey of the list: its name, when it was added and last signed in; once the page is live, Rename
// (an inline form: POST /passkey/update-passkey) and Remove (asked once more: POST /passkey/delete-passkey).

type Mode = "view" | "rename" | "remove";

/** Where an API refusal leads: re-authentication for an old sign-in (then null), else a problem to show. */
export function passkeyRefusal(
  state: StateOf<"account-passkeys">,
  code: string | undefined,
  status?: number,
): FormProblem | null {
  if (reauthenticateIfStale(code, state.paths.pages, `${state.paths.pages}/passkeys`)) return null;
  return problemOf(code, status);
}

type Change = (id: string, next: PasskeyItem | null, done: "passkeyRenamed" | "passkeyRemoved") => void;

interface RowProps {
  state: StateOf<"account-passkeys">;
  passkey: PasskeyItem;
  /** Hydrated: the buttons work (without JavaScript they are not drawn). */
  live: boolean;
  onChange: Change;
}

export function PasskeyRow({ state, passkey, live, onChange }: RowProps) {
  const { t } = usePage();
  const [mode, setMode] = useState<Mode>("view");
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const name = passkey.name || t("account.passkeys.unnamed");
  const describedBy = `authd-passkey-${passkey.id}`;
  const send = (path: string, body: Record<string, string>, done: () => void) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    apiClient(state.paths.api)
      .$fetch(path, { method: "POST", body })
      .then((answer: AuthResult<unknown>) => {
        setBusy(false);
        if (answer.error) setProblem(passkeyRefusal(state, answer.error.code, answer.error.status));
        else done();
      })
      .catch(() => {
        setBusy(false);
        setProblem({ code: "unknown" });
      });
  };
  const rename = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    send("/passkey/update-passkey", { id: passkey.id, name: next }, () => {
      setMode("view");
      onChange(passkey.id, { ...passkey, name: next }, "passkeyRenamed");
    });
  };
  const remove = () =>
    send("/passkey/delete-passkey", { id: passkey.id }, () => onChange(passkey.id, null, "passkeyRemoved"));
  const button = (label: Parameters<typeof t>[0], onClick: () => void, primary = false, autoFocus = false) => (
    <button
      type="button"
      className={primary ? "authd-button" : "authd-button authd-button-secondary"}
      onClick={onClick}
      aria-describedby={describedBy}
      aria-disabled={busy || undefined}
      // biome-ignore lint/a11y/noAutofocus: the control that replaced the one just pressed takes its focus
      autoFocus={autoFocus}
    >
      {t(label)}
    </button>
  );
  return (
    <li className="authd-list-item">
      <div id={describedBy}>
        <p className="authd-list-title">{name}</p>
        <p className="authd-hint">
          {passkey.createdAt ? t("account.passkeys.added", { date: when(passkey.createdAt) }) : null}
          <br />
          {passkey.lastUsedAt
            ? t("account.passkeys.lastUsed", { date: when(passkey.lastUsedAt) })
            : t("account.passkeys.neverUsed")}
        </p>
      </div>
      {live ? <ProblemMessage problem={problem} id={`authd-problem-${passkey.id}`} /> : null}
      {live && mode === "view" ? (
        <div className="authd-actions">
          {button("account.passkeys.rename", () => setMode("rename"))}
          {button("account.passkeys.remove", () => setMode("remove"))}
        </div>
      ) : null}
      {mode === "rename" ? (
        <form className="authd-form authd-inline-form" onSubmit={rename} noValidate>
          <Field
            name="name"
            label="account.passkeys.newName"
            autoComplete="off"
            defaultValue={passkey.name ?? ""}
            maxLength={256}
            problem={null}
            autoFocus
          />
          <div className="authd-actions">
            <button type="submit" className="authd-button" aria-disabled={busy || undefined}>
              {t("account.passkeys.save")}
            </button>
            {button("account.passkeys.cancel", () => setMode("view"))}
          </div>
        </form>
      ) : null}
      {mode === "remove" ? (
        <div className="authd-confirm">
          <p className="authd-text">{t("account.passkeys.removeConfirm", { name })}</p>
          <div className="authd-actions">
            {button("account.passkeys.removeForGood", remove, true)}
            {button("account.passkeys.cancel", () => setMode("view"), false, true)}
          </div>
        </div>
      ) : null}
    </li>
  );
}
