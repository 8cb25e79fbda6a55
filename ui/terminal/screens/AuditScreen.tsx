import { type AuditEventListing, describeEventData } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { type ListScreenProps, SearchableListScreen } from "./SearchableListScreen.tsx";

/** The audit log, newest first; typing filters by type, user id or email, or address; enter opens the event's user. */
export function AuditScreen({ data, notice: _notice, ...props }: ListScreenProps) {
  return (
    <SearchableListScreen<AuditEventListing>
      {...props}
      load={data.listAuditEvents}
      searchHint="type to filter by event type, user id or email, or ip"
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
        // Operators know people by address: the id beside it gives way first (enter opens the user).
        { header: "email", value: (e) => e.subjectEmail },
        { header: "subject", width: 12, value: (e) => e.subjectId },
        { header: "ip", value: (e) => e.ip },
        { header: "details", value: describeEventData },
      ]}
    />
  );
}
