import { toMinute } from "../../shared/dates.ts";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { type ConsoleAuditEventState, consoleHref } from "../console-state.ts";
import { ActorCell, SubjectCell } from "./audit.tsx";
import { useConsole } from "./context.tsx";
import { ConsoleShell } from "./shell.tsx";

// One event of the audit log with everything it holds: its fields, then each detail by name. Every value is
// drawn as text, whatever the request that caused the event put in it.

const detailText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="authd-console-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function ConsoleAuditEventScreen({ state }: { state: ConsoleAuditEventState }) {
  const { t } = useConsole();
  const { event } = state;
  const details = Object.entries(event.data);
  return (
    <ConsoleShell screen="audit" title={t("console.audit.event.title", { type: event.type })}>
      <p>
        <a href={consoleHref("/audit")}>{t("console.audit.event.back")}</a>
        {event.subjectId ? (
          <>
            {" · "}
            <a href={consoleHref("/audit", { user: event.subjectId })}>{t("console.audit.event.subjectEvents")}</a>
          </>
        ) : null}
      </p>
      <dl className="authd-console-fields">
        <Row label={t("console.audit.event.id")}>
          <span className="authd-console-code">{event.id}</span>
        </Row>
        <Row label={t("console.audit.column.time")}>{toMinute(event.createdAt)}</Row>
        <Row label={t("console.audit.column.type")}>
          <span className="authd-console-code">{event.type}</span>
        </Row>
        <Row label={t("console.audit.column.outcome")}>
          {t(`console.audit.outcome.${event.outcome}` as AnyMessageKey)}
        </Row>
        <Row label={t("console.audit.column.actor")}>
          <ActorCell event={event} />
        </Row>
        <Row label={t("console.audit.column.subject")}>
          <SubjectCell event={event} />
        </Row>
        <Row label={t("console.audit.event.organization")}>
          {event.organizationId ? (
            <span className="authd-console-code">{event.organizationId}</span>
          ) : (
            t("console.none")
          )}
        </Row>
        <Row label={t("console.audit.column.ip")}>{event.ip ?? t("console.none")}</Row>
        <Row label={t("console.audit.event.userAgent")}>{event.userAgent ?? t("console.none")}</Row>
      </dl>
      <h2 className="authd-subtitle-heading">{t("console.audit.event.details")}</h2>
      {details.length === 0 ? (
        <p>{t("console.audit.event.noDetails")}</p>
      ) : (
        <dl className="authd-console-fields">
          {details.map(([name, value]) => (
            <Row key={name} label={name}>
              <span className="authd-console-code">{detailText(value)}</span>
            </Row>
          ))}
        </dl>
      )}
    </ConsoleShell>
  );
}
