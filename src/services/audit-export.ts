import type { AuthContext } from "../context.ts";
import { type AuditCursor, type AuditFilter, listAuditEventsAfter } from "../db/repositories/audit-events.ts";
import type { AuditEventWire } from "../wire/audit.ts";
import { toAuditEventWire, withSubjectEmails } from "./audit-log.ts";
import { csvRow } from "./csv.ts";

// The audit log's export (issue 32): the filtered log as CSV or JSON Lines, newest first like the listing,
// for `authd audit export` and the web console's download. It is written a batch at a time, each batch one
// range of the (createdAt, id) index after the last event written, so memory stays flat however long the
// log is, and events recorded while it runs (newer than its first) are not part of it.

export type AuditExportFormat = "csv" | "jsonl";

export const AUDIT_EXPORT_FORMATS: readonly AuditExportFormat[] = ["csv", "jsonl"];

/** What a download is served as. */
export const AUDIT_EXPORT_MEDIA_TYPES: Record<AuditExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/jsonl; charset=utf-8",
};

/** The CSV's columns: the event's fields, the subject's current email beside its id, the details as JSON. */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "createdAt",
  "type",
  "outcome",
  "actorType",
  "actorId",
  "subjectId",
  "subjectEmail",
  "organizationId",
  "ip",
  "userAgent",
  "data",
] as const;

/** CSV records end with CRLF (RFC 4180); a JSON Lines record with LF. */
const CSV_EOL = "\r\n";

export interface AuditExportOptions {
  /** Events read per query (default 500). */
  batchSize?: number;
  /** Called after each batch with the number of events written so far. */
  onProgress?: (written: number) => void;
}

function jsonLines(events: AuditEventWire[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join("");
}

async function csvLines(ctx: AuthContext, events: AuditEventWire[]): Promise<string> {
  const listed = await withSubjectEmails(ctx, events);
  return listed
    .map((event) =>
      csvRow([
        event.id,
        event.createdAt,
        event.type,
        event.outcome,
        event.actor.type,
        event.actor.id,
        event.subjectId,
        event.subjectEmail,
        event.organizationId,
        event.ip,
        event.userAgent,
        JSON.stringify(event.data),
      ]),
    )
    .map((line) => `${line}${CSV_EOL}`)
    .join("");
}

/**
 * The export's text in chunks (a CSV's header first; then one chunk per batch of events), for a file, standard
 * output or a streamed download to write as they come. A null filter matches nothing (a user address no one
 * has): the CSV is its header alone, the JSON Lines empty.
 */
export async function* exportAuditLog(
  ctx: AuthContext,
  filter: AuditFilter | null,
  format: AuditExportFormat,
  options: AuditExportOptions = {},
): AsyncGenerator<string> {
  const batchSize = options.batchSize ?? 500;
  if (format === "csv") yield `${AUDIT_CSV_COLUMNS.join(",")}${CSV_EOL}`;
  if (filter === null) return;
  let cursor: AuditCursor | null = null;
  let written = 0;
  for (;;) {
    const rows = await listAuditEventsAfter(ctx.db, filter, cursor, batchSize);
    if (rows.length === 0) return;
    const events = rows.map(toAuditEventWire);
    yield format === "csv" ? await csvLines(ctx, events) : jsonLines(events);
    written += rows.length;
    options.onProgress?.(written);
    const last = rows[rows.length - 1];
    cursor = { createdAt: Number(last.createdAt), id: last.id };
    if (rows.length < batchSize) return;
  }
}

/** The download's file name: `authd-audit-20261127T2131Z.csv`, the time the export started (UTC). */
export function auditExportFileName(format: AuditExportFormat, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, "").slice(0, 13);
  return `authd-audit-${stamp}Z.${format}`;
}
