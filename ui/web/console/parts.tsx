import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { HiddenFields } from "../components/form.tsx";
import { consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// The pieces console screens are made of. Every one works without JavaScript: a search is a GET form, a
// page of results a link, an action a POST form carrying the anti-forgery token.

/** A labelled search box (GET to `path`), keeping the screen's other parameters (`keep`: filters). */
export function SearchForm({
  path,
  value,
  what,
  hint,
  keep = {},
  children,
}: {
  path: string;
  value: string;
  /** What is searched, as a message ("users"). */
  what: AnyMessageKey;
  hint?: AnyMessageKey;
  keep?: Record<string, string>;
  /** More controls of the same form (filters). */
  children?: React.ReactNode;
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <form method="get" action={consoleHref(path)} className="authd-console-search">
      <label htmlFor={id} className="authd-label">
        {t("console.searchLabel", { what: t(what) })}
      </label>
      <input
        id={id}
        name="search"
        type="search"
        className="authd-input"
        defaultValue={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="authd-hint">
          {t(hint)}
        </p>
      ) : null}
      {Object.entries(keep).map(([name, kept]) => (
        <input key={name} type="hidden" name={name} value={kept} />
      ))}
      {children}
      <button type="submit" className="authd-button">
        {t("console.search")}
      </button>
    </form>
  );
}

/** "1–50 of 1,234" and the links to the page before and after, keeping the query (`params`). */
export function Pager({
  path,
  total,
  offset,
  limit,
  params = {},
}: {
  path: string;
  total: number;
  offset: number;
  limit: number;
  params?: Record<string, string>;
}) {
  const { t, state } = useConsole();
  const number = new Intl.NumberFormat(state.locale);
  const to = Math.min(offset + limit, total);
  const before = offset > 0 ? consoleHref(path, { ...params, offset: Math.max(0, offset - limit) }) : null;
  const after = to < total ? consoleHref(path, { ...params, offset: offset + limit }) : null;
  const summary =
    offset >= total
      ? t("console.noResults")
      : t("console.results", {
          from: number.format(offset + 1),
          to: number.format(to),
          total: number.format(total),
        });
  return <PagerLinks summary={summary} before={before} after={after} />;
}

/** A list's pager: what the page shows, and links to the pages before and after it when there are any. */
export function PagerLinks({
  summary,
  before,
  after,
}: {
  summary: string;
  before: string | null;
  after: string | null;
}) {
  const { t } = useConsole();
  return (
    <nav className="authd-console-pager" aria-label={t("console.pager")}>
      <p>{summary}</p>
      {before ? (
        <a href={before} rel="prev">
          {t("console.previous")}
        </a>
      ) : null}
      {after ? (
        <a href={after} rel="next">
          {t("console.next")}
        </a>
      ) : null}
    </nav>
  );
}

/**
 * A POST form to a console route with the anti-forgery token: `fields` go as hidden inputs, `children` are
 * its visible controls, `label` its button (`danger` for what cannot be undone).
 */
export function ActionForm({
  action,
  fields = {},
  label,
  danger,
  children,
  className,
}: {
  action: string;
  fields?: Record<string, string>;
  label: AnyMessageKey;
  danger?: boolean;
  children?: React.ReactNode;
  className?: string;
}) {
  const { t } = useConsole();
  return (
    <form method="post" action={consoleHref(action)} className={className ?? "authd-console-action"}>
      <HiddenFields />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <button type="submit" className={danger ? "authd-button authd-button-danger" : "authd-button"}>
        {t(label)}
      </button>
    </form>
  );
}
