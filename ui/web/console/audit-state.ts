import type { ConsoleFrame } from "./frame-state.ts";

// The audit log's screens (/console/audit and /console/audit/:id): a page of the filtered log, and one event.

/** The filter form's values as the admin typed them (drawn back into the form, carried by links). */
export interface ConsoleAuditFilters {
  /** Event types; none: every type. */
  types: string[];
  /** A user's id or email address: the events about them. */
  user: string;
  /** An actor's id: what they did. */
  actor: string;
  /** "2026-11-27T10:00" (UTC), or a day; empty: no bound. */
  from: string;
  to: string;
  outcome: "" | "success" | "failure";
}

export interface ConsoleAuditRow {
  id: string;
  createdAt: string;
  type: string;
  outcome: "success" | "failure";
  actorType: string;
  actorId: string | null;
  subjectId: string | null;
  /** The subject's current address (null once the user is gone). */
  subjectEmail: string | null;
  ip: string | null;
}

export interface ConsoleAuditState {
  page: "console-audit";
  console: ConsoleFrame;
  filters: ConsoleAuditFilters;
  /** Every type the log can hold, for the type filter. */
  eventTypes: string[];
  events: ConsoleAuditRow[];
  total: number;
  query: { offset: number; limit: number };
  /** The user filter is an address no user has now: nothing is listed. */
  unknownUser: boolean;
  /** Filters whose value could not be read and were left out ("from", "to", "type"). */
  unreadable: string[];
}

export interface ConsoleAuditEvent extends ConsoleAuditRow {
  userAgent: string | null;
  organizationId: string | null;
  /** The event's details, as recorded. */
  data: Record<string, unknown>;
}

export interface ConsoleAuditEventState {
  page: "console-audit-event";
  console: ConsoleFrame;
  event: ConsoleAuditEvent;
}

/** The filters as a link's query: types comma-separated, empty ones left out. */
export function auditFilterParams(filters: ConsoleAuditFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.types.length > 0) params.type = filters.types.join(",");
  for (const name of ["user", "actor", "from", "to", "outcome"] as const)
    if (filters[name]) params[name] = filters[name];
  return params;
}
