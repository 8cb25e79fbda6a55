import { useEffect, useState } from "react";
import { apiClient, go } from "../../api.ts";
import { AccountShell } from "../../components/account-shell.tsx";
import { Field, ProblemMessage } from "../../components/form.tsx";
import { useHydrated } from "../../components/hydrated.ts";
import { usePage } from "../../components/page-context.tsx";
import { Notice } from "../../components/shell.tsx";
import { passkeysSupported } from "../../passkey.ts";
import { addPasskey, describeDevice } from "../../passkey-registration.ts";
import type { FormProblem, PasskeyItem, StateOf } from "../../state.ts";
import { PasskeyRow, passkeyRefusal } from "./passkey-row.tsx";

// The passkeys section (/account/passkeys): the server draws the list (added, last used); adding one (a
// WebAuthn ceremony), renaming and removing need the page's script, which goes through the API's /passkey
// routes. Without JavaScript the page says so instead of offering controls that could not work.

type State = StateOf<"account-passkeys">;

export function AccountPasskeysPage({ state }: { state: State }) {
  const { t } = usePage();
  const hydrated = useHydrated();
  const [passkeys, setPasskeys] = useState<PasskeyItem[]>(state.passkeys);
  const [notice, setNotice] = useState<string | null>(null);
  const replace = (id: string, next: PasskeyItem | null, done: "passkeyRenamed" | "passkeyRemoved") => {
    setPasskeys((list) => list.flatMap((each) => (each.id !== id ? [each] : next ? [next] : [])));
    setNotice(t(`notice.account.${done}`));
  };
  return (
    <AccountShell section="passkeys" account={state.account}>
      <p className="authd-text">{t("account.passkeys.explain")}</p>
      {notice ? <Notice>{notice}</Notice> : null}
      {passkeys.length === 0 ? <p className="authd-text">{t("account.passkeys.none")}</p> : null}
      <ul className="authd-list" aria-label={t("account.section.passkeys")}>
        {passkeys.map((passkey) => (
          <PasskeyRow key={passkey.id} state={state} passkey={passkey} live={hydrated} onChange={replace} />
        ))}
      </ul>
      {hydrated ? <AddPasskey state={state} /> : <p className="authd-text">{t("account.passkeys.needsJavaScript")}</p>}
    </AccountShell>
  );
}

/** The name a new passkey gets unless the person types another: this browser and system ("Chrome on Linux"). */
function useDefaultName(): string {
  const { t } = usePage();
  const [name, setName] = useState("");
  useEffect(() => {
    const { browser, system } = describeDevice(navigator.userAgent);
    if (browser && system) setName(t("account.passkeys.defaultName", { browser, system }));
    else setName(browser ?? system ?? "");
  }, [t]);
  return name;
}

function AddPasskey({ state }: { state: State }) {
  const { t } = usePage();
  const defaultName = useDefaultName();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return <p className="authd-text">{t("account.passkeys.unsupported")}</p>;
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setBusy(true);
    setProblem(null);
    addPasskey(apiClient(state.paths.api), name)
      .then((refusal) => {
        if (!refusal) return go(`${state.paths.pages}/passkeys?notice=notice.account.passkeyAdded`);
        setProblem(passkeyRefusal(state, refusal.code, refusal.status));
        setBusy(false);
      })
      .catch(() => {
        setProblem({ code: "PASSKEY_CREATE_FAILED" });
        setBusy(false);
      });
  };
  return (
    <section className="authd-account-part" aria-labelledby="authd-add-passkey">
      <h2 id="authd-add-passkey" className="authd-subtitle-heading">
        {t("account.passkeys.addTitle")}
      </h2>
      <form className="authd-form" onSubmit={onSubmit} noValidate>
        <ProblemMessage problem={problem} id="authd-problem-add-passkey" />
        <Field
          key={defaultName}
          name="name"
          label="account.passkeys.name"
          autoComplete="off"
          defaultValue={defaultName}
          hint={t("account.passkeys.nameHint")}
          required={false}
          maxLength={256}
          problem={problem}
        />
        <button type="submit" className="authd-button" aria-disabled={busy || undefined}>
          {t("account.passkeys.add")}
        </button>
      </form>
    </section>
  );
}
