import type { AuditEventWire } from "../../../src/wire/audit.ts";
import { describeEventData } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { type ListScreenProps, SearchableListScreen } from "./SearchableListScreen.tsx";

/** The audit log, newest first; typing filters by type, user id or address, enter opens the event's user. */
export function AuditScreen({ data, notice: _notice, ...props }: ListScreenProps) {
  return (
    <SearchableListScreen<AuditEventWire>
      {...props}
      load={data.listAuditEvents}
      searchHint="type to filter by event type, user id or ip"
      noun="event"
      emptyText="no events match"
      rowKey={(e) => e.id}
      open={(e) => {
        if (e.subjectId) props.nav.openUser(e.subjectId);
      }}
      columns={[
        { header: "time", width: 16, value: (e) => toMinute(e.createdAt) },
        { header: "type", value: (e) => e.type },
        {
          header: "outcome",
          width: 7,
          value: (e) => e.outcome,
          color: (e) => (e.outcome === "failure" ? "red" : undefined),
        },
        { header: "actor", width: 9, value: (e) => e.actor.type },
        { header: "subject", value: (e) => e.subjectId },
        { header: "ip", value: (e) => e.ip },
        { header: "details", value: describeEventData },
      ]}
    />
  );
}
