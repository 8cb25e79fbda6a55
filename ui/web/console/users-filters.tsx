import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { SearchForm } from "./parts.tsx";
import { type ConsoleUsersQuery, type ConsoleUsersState, USER_SORTS } from "./users-state.ts";

// The users list's search with its filters and order: one GET form, so a search is a URL to keep or share,
// and all of it works without JavaScript. The filters fold away (a details element) until one is set.

function Select({
  name,
  label,
  value,
  options,
  hint,
}: {
  name: keyof ConsoleUsersQuery;
  label: AnyMessageKey;
  value: string;
  /** [value, its label as a message key, or the text itself for stored values (roles, providers)]. */
  options: [string, string][];
  hint?: AnyMessageKey;
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-field authd-console-users-filter">
      <label htmlFor={id} className="authd-label">
        {t(label)}
      </label>
      <select id={id} name={name} className="authd-input" defaultValue={value}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text.startsWith("console.") ? t(text as AnyMessageKey) : text}
          </option>
        ))}
      </select>
      {hint ? <p className="authd-hint">{t(hint)}</p> : null}
    </div>
  );
}

const tristate = (name: string): [string, string][] => [
  ["", "console.users.any"],
  ["yes", `console.users.filter.${name}.yes`],
  ["no", `console.users.filter.${name}.no`],
];

/** A choice from stored values, keeping the current one even when no row holds it any more. */
function stored(values: string[], current: string, label: (value: string) => string): [string, string][] {
  const all = current && !values.includes(current) ? [...values, current] : values;
  return [["", "console.users.any"], ...all.map((value): [string, string] => [value, label(value)])];
}

export function UsersSearch({ state }: { state: ConsoleUsersState }) {
  const { t } = useConsole();
  const { query, choices } = state;
  const orgId = useId();
  const filtered = [query.banned, query.verified, query.twoFactor, query.passkey, query.provider, query.org]
    .concat([query.role, query.order, query.sort === "created" ? "" : query.sort])
    .some((value) => value !== "");
  return (
    <SearchForm path="/users" value={query.search} what="console.users.what" hint="console.users.searchHint">
      <label className="authd-check authd-console-users-match">
        <input type="checkbox" name="match" value="contains" defaultChecked={query.match === "contains"} />
        {t("console.users.match.contains")}
      </label>
      <details className="authd-console-users-filters" open={filtered}>
        <summary>{t("console.users.filters")}</summary>
        <div className="authd-console-users-filter-grid">
          <Select name="banned" label="console.users.filter.banned" value={query.banned} options={tristate("banned")} />
          <Select
            name="verified"
            label="console.users.filter.verified"
            value={query.verified}
            options={tristate("verified")}
          />
          <Select
            name="twoFactor"
            label="console.users.filter.twoFactor"
            value={query.twoFactor}
            options={tristate("twoFactor")}
          />
          <Select
            name="passkey"
            label="console.users.filter.passkey"
            value={query.passkey}
            options={tristate("passkey")}
          />
          <Select
            name="provider"
            label="console.users.filter.provider"
            value={query.provider}
            options={stored(choices.providers, query.provider, (p) =>
              p === "credential" ? "console.users.filter.provider.credential" : p,
            )}
          />
          <Select
            name="role"
            label="console.users.filter.role"
            value={query.role}
            options={stored(choices.roles, query.role, (role) => role)}
          />
          <div className="authd-field authd-console-users-filter">
            <label htmlFor={orgId} className="authd-label">
              {t("console.users.filter.org")}
            </label>
            <input
              id={orgId}
              name="org"
              className="authd-input"
              defaultValue={query.org}
              aria-describedby={`${orgId}-hint`}
            />
            <p id={`${orgId}-hint`} className="authd-hint">
              {t("console.users.filter.orgHint")}
            </p>
          </div>
          <Select
            name="sort"
            label="console.users.sort"
            value={query.sort}
            options={USER_SORTS.map((sort) => [sort, `console.users.sort.${sort}`])}
          />
          <Select
            name="order"
            label="console.users.order"
            value={query.order}
            options={[
              ["", "console.users.order.default"],
              ["asc", "console.users.order.asc"],
              ["desc", "console.users.order.desc"],
            ]}
          />
        </div>
        <a href={consoleHref("/users")}>{t("console.users.clear")}</a>
      </details>
    </SearchForm>
  );
}
