import type { Context } from "hono";
import { AUDITED_EVENT_TYPES, type AuditLogQuery } from "../../../ui/data.ts";
import type { ConsoleAuditFilters } from "../../../ui/web/state.ts";

// The audit screen's filters from its query (the GET form, or a link carrying them): what the admin typed,
// drawn back into the form, and the query AdminData reads the log with. A value that cannot be read is left
// out and named, never guessed. Times are UTC: "from" is the minute (or day) it names, "to" includes its own.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MAX_TEXT = 256;
const KNOWN_TYPES: ReadonlySet<string> = new Set(AUDITED_EVENT_TYPES);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** "2026-11-27" or "2026-11-27T10:00" as UTC: the start, the form's value, and how long it lasts. */
function readTime(text: string): { at: number; value: string; length: number } | null {
  const day = DAY.exec(text);
  const minute = day ? null : MINUTE.exec(text);
  const parts = day ?? minute;
  if (!parts) return null;
  const [, year, month, date, hour = "00", min = "00"] = parts;
  const at = Date.UTC(Number(year), Number(month) - 1, Number(date), Number(hour), Number(min));
  // Date.UTC rolls 2026-02-31 over into March: a date that does not exist is not read.
  const back = new Date(at).toISOString();
  if (Number.isNaN(at) || back.slice(0, 16) !== `${year}-${month}-${date}T${hour}:${min}`) return null;
  return { at, value: back.slice(0, 16), length: day ? DAY_MS : MINUTE_MS };
}

const text = (value: string | undefined) => (value ?? "").trim().slice(0, MAX_TEXT);

export interface ReadAuditFilters {
  filters: ConsoleAuditFilters;
  query: AuditLogQuery;
  unreadable: string[];
}

export function readAuditFilters(c: Context): ReadAuditFilters {
  const unreadable: string[] = [];
  const named = (c.req.queries("type") ?? []).flatMap((value) => value.split(",")).map((type) => type.trim());
  const types = [...new Set(named.filter((type) => KNOWN_TYPES.has(type)))];
  if (named.some((type) => type !== "" && !KNOWN_TYPES.has(type))) unreadable.push("type");
  const user = text(c.req.query("user"));
  const actor = text(c.req.query("actor"));
  const outcomeText = c.req.query("outcome");
  const outcome = outcomeText === "success" || outcomeText === "failure" ? outcomeText : "";
  const query: AuditLogQuery = {
    types: types.length > 0 ? types : undefined,
    user: user || undefined,
    actorId: actor || undefined,
    outcome: outcome || undefined,
  };
  const filters: ConsoleAuditFilters = { types, user, actor, from: "", to: "", outcome };
  for (const bound of ["from", "to"] as const) {
    const typed = text(c.req.query(bound));
    if (!typed) continue;
    const time = readTime(typed);
    if (!time) {
      unreadable.push(bound);
      continue;
    }
    if (bound === "from") {
      query.since = time.at;
      filters.from = time.value;
    } else {
      query.until = time.at + time.length;
      filters.to = new Date(query.until - MINUTE_MS).toISOString().slice(0, 16);
    }
  }
  return { filters, query, unreadable };
}
