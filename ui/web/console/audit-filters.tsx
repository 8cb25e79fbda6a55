import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { type ConsoleAuditFilters, consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// The audit log's filter form: a GET form, so it works without JavaScript and its result is a link to keep.
// Several types are chosen in a list box; times are UTC, to the minute.

function TextFilter({ name, value, hint }: { name: "user" | "actor"; value: string; hint: AnyMessageKey }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-console-filter">
      <label htmlFor={id} className="authd-label">
        {t(`console.audit.filter.${name}` as AnyMessageKey)}
      </label>
      <input
        id={id}
        name={name}
        className="authd-input"
        defaultValue={value}
        maxLength={256}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="authd-hint">
        {t(hint)}
      </p>
    </div>
  );
}

function TimeFilter({ name, value }: { name: "from" | "to"; value: string }) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-console-filter">
      <label htmlFor={id} className="authd-label">
        {t(`console.audit.filter.${name}` as AnyMessageKey)}
      </label>
      <input id={id} name={name} type="datetime-local" step={60} className="authd-input" defaultValue={value} />
    </div>
  );
}

export function AuditFilterForm({ filters, eventTypes }: { filters: ConsoleAuditFilters; eventTypes: string[] }) {
  const { t } = useConsole();
  const typesId = useId();
  const outcomeId = useId();
  return (
    <form method="get" action={consoleHref("/audit")} className="authd-console-filters">
      <div className="authd-console-filter authd-console-filter-types">
        <label htmlFor={typesId} className="authd-label">
          {t("console.audit.filter.types")}
        </label>
        <select
          id={typesId}
          name="type"
          multiple
          size={6}
          className="authd-input"
          defaultValue={filters.types}
          aria-describedby={`${typesId}-hint`}
        >
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <p id={`${typesId}-hint`} className="authd-hint">
          {t("console.audit.filter.typesHint")}
        </p>
      </div>
      <TextFilter name="user" value={filters.user} hint="console.audit.filter.userHint" />
      <TextFilter name="actor" value={filters.actor} hint="console.audit.filter.actorHint" />
      <TimeFilter name="from" value={filters.from} />
      <TimeFilter name="to" value={filters.to} />
      <div className="authd-console-filter">
        <label htmlFor={outcomeId} className="authd-label">
          {t("console.audit.filter.outcome")}
        </label>
        <select id={outcomeId} name="outcome" className="authd-input" defaultValue={filters.outcome}>
          <option value="">{t("console.audit.outcome.any")}</option>
          <option value="success">{t("console.audit.outcome.success")}</option>
          <option value="failure">{t("console.audit.outcome.failure")}</option>
        </select>
      </div>
      <div className="authd-console-filter-actions">
        <button type="submit" className="authd-button">
          {t("console.audit.filter.apply")}
        </button>
        <a href={consoleHref("/audit")}>{t("console.audit.filter.clear")}</a>
      </div>
    </form>
  );
}
