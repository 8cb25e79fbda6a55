import { useEffect, useId, useRef, useState } from "react";
import type { CreatedApiKey } from "../../../../src/client/index.ts";
import { toDay } from "../../../shared/dates.ts";
import { apiClient } from "../../api.ts";
import { ItemForm, useAccountActions } from "../../components/account-actions.tsx";
import { AccountShell } from "../../components/account-shell.tsx";
import { Field, HiddenFields, ProblemMessage } from "../../components/form.tsx";
import { usePage } from "../../components/page-context.tsx";
import { Notice, SubmitButton } from "../../components/shell.tsx";
import type { ApiKeyRules, ApiKeyView, StateOf } from "../../state.ts";

// The user's API keys: the list (never a secret), a form to create one with what a user may set on their
// own key (a name, an expiry), the new key shown once with a copy button, and Revoke. With JavaScript,
// create and revoke go through POST /api-key/create and /api-key/delete, and the new key appears in place.

type ApiKeysState = StateOf<"account-api-keys">;
const DAY_SECONDS = 86_400;

/** The client hands dates out as Date objects; the page keeps the ISO strings the server drew it from. */
const viewOf = (key: CreatedApiKey): ApiKeyView => ({
  id: key.id,
  name: key.name,
  start: key.start,
  createdAt: key.createdAt.toISOString(),
  expiresAt: key.expiresAt?.toISOString() ?? null,
  lastUsedAt: key.lastRequest?.toISOString() ?? null,
  enabled: key.enabled,
});

export function AccountApiKeysPage({ state }: { state: ApiKeysState }) {
  const { t } = usePage();
  const actions = useAccountActions("api-keys");
  const [keys, setKeys] = useState(state.keys);
  const [created, setCreated] = useState(state.created);
  const client = () => apiClient(state.paths.api).apiKey;
  const create = actions.act(
    (fields) =>
      client().create({
        name: fields.name || undefined,
        expiresIn: fields.expiresInDays ? Number(fields.expiresInDays) * DAY_SECONDS : undefined,
      }),
    (key, form) => {
      setCreated({ name: key.name, key: key.key });
      setKeys((shown) => [...shown, viewOf(key)]);
      form.reset();
    },
  );
  const revoke = actions.act(
    (fields) => client().delete({ keyId: fields.keyId }),
    () => actions.reload("notice.account.apiKeyRevoked"),
  );
  return (
    <AccountShell section="api-keys" account={state.account}>
      <p className="authd-hint">{t("account.apiKeys.explain")}</p>
      <ProblemMessage problem={actions.problem} id="authd-form-problem" />
      {created ? <CreatedKey created={created} /> : null}
      {keys.length === 0 ? <p className="authd-text">{t("account.apiKeys.none")}</p> : null}
      <ul className="authd-items">
        {keys.map((key) => (
          <KeyItem key={key.id} apiKey={key}>
            <div className="authd-item-action">
              <ItemForm
                action={`${state.paths.pages}/api-keys/revoke`}
                onSubmit={revoke}
                fields={{ keyId: key.id }}
                label="action.revoke"
                item={key.name ?? key.start ?? key.id}
                busy={actions.busy}
              />
            </div>
          </KeyItem>
        ))}
      </ul>
      <section aria-labelledby="authd-create-key">
        <h2 id="authd-create-key" className="authd-subheading">
          {t("account.apiKeys.create")}
        </h2>
        <form method="post" action={`${state.paths.pages}/api-keys/create`} className="authd-form" onSubmit={create}>
          <HiddenFields />
          <Field
            name="name"
            label="field.keyName"
            autoComplete="off"
            required={state.rules.name.required}
            minLength={state.rules.name.min}
            maxLength={state.rules.name.max}
            problem={actions.problem}
          />
          <ExpiryChoice rules={state.rules} />
          <p className="authd-hint">{t("account.apiKeys.permissions", { appName: state.branding.appName })}</p>
          <SubmitButton label="action.createKey" busy={actions.busy} />
        </form>
      </section>
    </AccountShell>
  );
}

function KeyItem({ apiKey, children }: { apiKey: ApiKeyView; children: React.ReactNode }) {
  const { t } = usePage();
  const day = (iso: string | null) => toDay(iso) ?? "";
  const details = [
    apiKey.start ? t("account.apiKeys.starts", { start: `${apiKey.start}…` }) : null,
    t("account.apiKeys.createdOn", { date: day(apiKey.createdAt) }),
    apiKey.expiresAt ? t("account.apiKeys.expiresOn", { date: day(apiKey.expiresAt) }) : t("account.apiKeys.noExpiry"),
    apiKey.lastUsedAt ? t("account.apiKeys.lastUsed", { date: day(apiKey.lastUsedAt) }) : t("account.apiKeys.unused"),
    apiKey.enabled ? null : t("account.apiKeys.disabled"),
  ].filter((detail): detail is string => detail !== null);
  return (
    <li className="authd-item">
      <div className="authd-item-text">
        <p className="authd-item-name">{apiKey.name ?? t("account.apiKeys.unnamed")}</p>
        <p className="authd-item-detail">{details.join(" · ")}</p>
      </div>
      {children}
    </li>
  );
}

/** The expiries a user may choose (none when custom expiries are off: the default then applies alone). */
function ExpiryChoice({ rules }: { rules: ApiKeyRules }) {
  const { t } = usePage();
  const id = useId();
  const after = (days: number) =>
    days === 1 ? t("account.apiKeys.afterOneDay") : t("account.apiKeys.afterDays", { days });
  const usual = rules.defaultExpiryDays === null ? t("account.apiKeys.never") : after(rules.defaultExpiryDays);
  return (
    <div className="authd-field">
      <label htmlFor={id} className="authd-label">
        {t("field.keyExpiry")}
      </label>
      <select id={id} name="expiresInDays" className="authd-input" defaultValue="">
        <option value="">{usual}</option>
        {rules.expiryDays
          .filter((days) => days !== rules.defaultExpiryDays)
          .map((days) => (
            <option key={days} value={String(days)}>
              {after(days)}
            </option>
          ))}
      </select>
    </div>
  );
}

/** The key just created, shown this once: selectable text, and with JavaScript a copy button. */
function CreatedKey({ created }: { created: { name: string | null; key: string } }) {
  const { t } = usePage();
  const id = useId();
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // Only once hydrated, and where the browser lets a page write the clipboard: no button that does nothing.
  // The key gets the focus (and is selected), so it can be copied at once and a screen reader reads it.
  useEffect(() => {
    setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard));
    field.current?.focus();
  }, []);
  const copy = () => {
    navigator.clipboard.writeText(created.key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="authd-secret">
      <Notice>{t("account.apiKeys.created")}</Notice>
      <div className="authd-field">
        <label htmlFor={id} className="authd-label">
          {created.name ? `${t("field.newKey")}: ${created.name}` : t("field.newKey")}
        </label>
        <input
          ref={field}
          id={id}
          className="authd-input authd-secret-value"
          readOnly
          value={created.key}
          autoComplete="off"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      {canCopy ? (
        <button type="button" className="authd-button authd-button-secondary" onClick={copy}>
          {t("action.copy")}
        </button>
      ) : null}
      <p className="authd-hint" role="status">
        {copied ? t("notice.copied") : ""}
      </p>
    </div>
  );
}
