import { toMinute } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import {
  auditFilterParams,
  type ConsoleAuditRow,
  type ConsoleAuditState,
  consoleHref,
  mayDo,
} from "../console-state.ts";
import { AuditFilterForm } from "./audit-filters.tsx";
import { useConsole } from "./context.tsx";
import { Pager } from "./parts.tsx";
import { ConsoleShell } from "./shell.tsx";

// The audit log: the filter form, the download of what it selects (for an admin holding audit:export), and
// a page of events, newest first, each opening its detail.

/** Who acted: their kind, and their id when the event names one. */
export function ActorCell({ event }: { event: Pick<ConsoleAuditRow, "actorType" | "actorId"> }) {
  const { t } = useConsole();
  return (
    <>
      {t(`console.audit.actor.${event.actorType}` as AnyMessageKey)}
      {event.actorId ? <span className="authd-console-secondary authd-console-code">{event.actorId}</span> : null}
    </>
  );
}

/** Whom it was about: their address (and id), their id alone once they are gone, or nobody. */
export function SubjectCell({ event }: { event: Pick<ConsoleAuditRow, "subjectId" | "subjectEmail"> }) {
  const { t } = useConsole();
  if (!event.subjectId) return <>{t("console.none")}</>;
  return (
    <>
      {event.subjectEmail ?? t("console.audit.subjectGone")}
      <span className="authd-console-secondary authd-console-code">{event.subjectId}</span>
    </>
  );
}

function Downloads({ state }: { state: ConsoleAuditState }) {
  const { t } = useConsole();
  const params = auditFilterParams(state.filters);
  return (
    <p className="authd-console-downloads">
      <a href={consoleHref("/audit/export", { ...params, format: "csv" })} download>
        {t("console.audit.download.csv")}
      </a>
      <a href={consoleHref("/audit/export", { ...params, format: "jsonl" })} download>
        {t("console.audit.download.jsonl")}
      </a>
    </p>
  );
}

export function ConsoleAuditScreen({ state }: { state: ConsoleAuditState }) {
  const { t, frame } = useConsole();
  const { offset, limit } = state.query;
  return (
    <ConsoleShell screen="audit">
      <AuditFilterForm filters={state.filters} eventTypes={state.eventTypes} />
      {state.unreadable.length > 0 ? (
        <p className="authd-problem" role="alert">
          {t("console.audit.unreadable", {
            fields: state.unreadable.map((name) => t(`console.audit.filter.${name}` as AnyMessageKey)).join(", "),
          })}
        </p>
      ) : null}
      {state.unknownUser ? (
        <p className="authd-notice" role="status">
          {t("console.audit.unknownUser", { user: state.filters.user })}
        </p>
      ) : null}
      {mayDo(frame, "audit", "export") ? <Downloads state={state} /> : null}
      <table className="authd-console-table authd-console-audit-table">
        <thead>
          <tr>
            <th scope="col">{t("console.audit.column.time")}</th>
            <th scope="col">{t("console.audit.column.type")}</th>
            <th scope="col">{t("console.audit.column.outcome")}</th>
            <th scope="col">{t("console.audit.column.actor")}</th>
            <th scope="col">{t("console.audit.column.subject")}</th>
            <th scope="col">{t("console.audit.column.ip")}</th>
          </tr>
        </thead>
        <tbody>
          {state.events.map((event) => (
            <tr key={event.id}>
              <td className="authd-console-nowrap">{toMinute(event.createdAt)}</td>
              <td className="authd-console-nowrap">
                <a href={consoleHref(`/audit/${encodeURIComponent(event.id)}`)} className="authd-console-code">
                  {event.type}
                </a>
              </td>
              <td className="authd-console-nowrap">{t(`console.audit.outcome.${event.outcome}` as AnyMessageKey)}</td>
              <td>
                <ActorCell event={event} />
              </td>
              <td>
                <SubjectCell event={event} />
              </td>
              <td className="authd-console-address">{event.ip ?? t("console.none")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        path="/audit"
        total={state.total}
        offset={offset}
        limit={limit}
        params={auditFilterParams(state.filters)}
      />
    </ConsoleShell>
  );
}
