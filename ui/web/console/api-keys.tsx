import { useId } from "react";
import { toDay } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import {
  type ConsoleApiKeyRow,
  type ConsoleApiKeysState,
  consoleHref,
  mayDo,
  type YesNoAny,
} from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConfirmBox, FormProblemNote, FormProblemSummary, formAnchor } from "./form-notes.tsx";
import { ActionForm, Pager, SearchForm } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The API keys screen: every user's keys, searched by name, prefix, first characters or owner email and
// filtered (switched on or off, expired or not); an admin holding apiKey:revoke revokes one after ticking
// its box. A key is shown by its name and first characters, never the key.

export function ConsoleApiKeysScreen({ state }: { state: ConsoleApiKeysState }) {
  const { t } = useConsole();
  const { search, enabled, expired, offset, limit } = state.query;
  const params = { search, enabled, expired };
  return (
    <ConsoleShell screen="api-keys">
      <SearchForm path="/api-keys" value={search} what="console.apiKeys.what" hint="console.apiKeys.searchHint">
        <Filter
          name="enabled"
          value={enabled}
          label="console.apiKeys.filter.enabled"
          choices="console.apiKeys.enabled"
        />
        <Filter
          name="expired"
          value={expired}
          label="console.apiKeys.filter.expired"
          choices="console.apiKeys.expired"
        />
      </SearchForm>
      <FormProblemSummary />
      <table className="authd-console-table">
        <thead>
          <tr>
            <th scope="col">{t("console.apiKeys.column.key")}</th>
            <th scope="col">{t("console.apiKeys.column.owner")}</th>
            <th scope="col" className="authd-console-nowrap">
              {t("console.apiKeys.column.status")}
            </th>
            <th scope="col" className="authd-console-nowrap">
              {t("console.apiKeys.column.expires")}
            </th>
            <th scope="col" className="authd-console-nowrap">
              {t("console.apiKeys.column.lastUsed")}
            </th>
            {mayRevoke(state) ? <th scope="col">{t("console.actions")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {state.keys.map((key) => (
            <KeyRow key={key.id} state={state} apiKey={key} />
          ))}
        </tbody>
      </table>
      <Pager path="/api-keys" total={state.total} offset={offset} limit={limit} params={params} />
    </ConsoleShell>
  );
}

const mayRevoke = (state: ConsoleApiKeysState) => mayDo(state.console, "apiKey", "revoke");

/** A filter of the search form: any, the named state (`choices`.yes), or its opposite (`choices`.no). */
function Filter(props: { name: string; value: YesNoAny; label: AnyMessageKey; choices: string }) {
  const { name, value, label, choices } = props;
  const { t } = useConsole();
  const id = useId();
  return (
    <span className="authd-console-key-filter">
      <label htmlFor={id} className="authd-label">
        {t(label)}
      </label>
      <select id={id} name={name} className="authd-input authd-console-select" defaultValue={value}>
        <option value="">{t("console.apiKeys.any")}</option>
        <option value="yes">{t(`${choices}.yes` as AnyMessageKey)}</option>
        <option value="no">{t(`${choices}.no` as AnyMessageKey)}</option>
      </select>
    </span>
  );
}

function status(key: ConsoleApiKeyRow): AnyMessageKey {
  if (key.ownerBanned) return "console.apiKeys.status.ownerBanned";
  if (!key.enabled) return "console.apiKeys.status.disabled";
  return key.expired ? "console.apiKeys.status.expired" : "console.apiKeys.status.active";
}

function KeyRow({ state, apiKey }: { state: ConsoleApiKeysState; apiKey: ConsoleApiKeyRow }) {
  const { t, frame } = useConsole();
  const form = `key-${apiKey.id}`;
  const name = apiKey.name ?? t("console.apiKeys.unnamed");
  const owner = mayDo(frame, "user", "get") ? consoleHref(`/users/${encodeURIComponent(apiKey.userId)}`) : null;
  const { search, enabled, expired, offset } = state.query;
  return (
    <tr id={formAnchor(form)}>
      <td>
        {name}
        {apiKey.start ? (
          <span className="authd-console-secondary">{t("console.apiKeys.start", { start: apiKey.start })}</span>
        ) : null}
        <FormProblemNote form={form} />
      </td>
      <td>{owner ? <a href={owner}>{apiKey.userEmail}</a> : apiKey.userEmail}</td>
      <td className="authd-console-nowrap">{t(status(apiKey))}</td>
      <td className="authd-console-nowrap">{apiKey.expiresAt ? toDay(apiKey.expiresAt) : t("console.never")}</td>
      <td className="authd-console-nowrap">{apiKey.lastRequest ? toDay(apiKey.lastRequest) : t("console.never")}</td>
      {mayRevoke(state) ? (
        <td>
          <ActionForm
            action="/api-keys/revoke"
            fields={{ keyId: apiKey.id, search, enabled, expired, offset: String(offset) }}
            label="console.apiKeys.revoke"
            danger
          >
            <ConfirmBox label={t("console.apiKeys.confirmRevoke", { name, email: apiKey.userEmail })} />
          </ActionForm>
        </td>
      ) : null}
    </tr>
  );
}
