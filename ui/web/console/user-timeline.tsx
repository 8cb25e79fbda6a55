import type { ConsoleUserState } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { Pager } from "./parts.tsx";
import { minute, Section } from "./user-parts.tsx";

// A user's timeline: the security events about them, newest first, a page at a time: what happened, who
// did it (the user, an administrator, the server, an operator; an impersonation names both in its details),
// from where, and the event's details as the audit log holds them.

export function TimelineSection({ state }: { state: ConsoleUserState }) {
  const { t } = useConsole();
  const { offset, limit, total } = state.eventsPage;
  return (
    <Section id="timeline" title="console.user.timeline">
      {state.events.length > 0 ? (
        <table className="authd-console-table">
          <thead>
            <tr>
              <th scope="col">{t("console.user.event.time")}</th>
              <th scope="col">{t("console.user.event.type")}</th>
              <th scope="col">{t("console.user.event.actor")}</th>
              <th scope="col">{t("console.user.event.address")}</th>
              <th scope="col">{t("console.user.event.details")}</th>
            </tr>
          </thead>
          <tbody>
            {state.events.map((event) => (
              <tr key={event.id}>
                <td>{minute(event.createdAt, "")}</td>
                <td>
                  <code>{event.type}</code>
                  {event.outcome === "failure" ? (
                    <span className="authd-console-secondary">{t("console.user.event.failed")}</span>
                  ) : null}
                </td>
                <td>
                  {event.actorType}
                  {event.actorId ? <span className="authd-console-secondary">{event.actorId}</span> : null}
                </td>
                <td>{event.ip ?? t("console.none")}</td>
                <td className="authd-console-details-text">{event.details || t("console.none")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager path={`/users/${encodeURIComponent(state.user.id)}`} total={total} offset={offset} limit={limit} />
    </Section>
  );
}
