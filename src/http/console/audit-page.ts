import type { Context } from "hono";
import {
  AUDIT_EXPORT_MEDIA_TYPES,
  AUDITED_EVENT_TYPES,
  type AuditEventListing,
  type AuditExportFormat,
  auditExportFileName,
} from "../../../ui/data.ts";
import type { ConsoleAuditEvent, ConsoleAuditRow } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { linkFailure } from "../pages/mailed-links.ts";
import { readAuditFilters } from "./audit-query.ts";
import { consoleAccess, consoleScreen, queryNumber } from "./frame.ts";

// The audit log's screens (/console/audit, /console/audit/:id) and its download (/console/audit/export): the
// filtered log a page at a time, one event with all its data, and the same filter's events as CSV or JSON
// Lines streamed as they are read (audit:export).

const PAGE_SIZE = 50;

function toRow(event: AuditEventListing): ConsoleAuditRow {
  return {
    id: event.id,
    createdAt: event.createdAt,
    type: event.type,
    outcome: event.outcome,
    actorType: event.actor.type,
    actorId: event.actor.id,
    subjectId: event.subjectId,
    subjectEmail: event.subjectEmail,
    ip: event.ip,
  };
}

function toEvent(event: AuditEventListing): ConsoleAuditEvent {
  return { ...toRow(event), userAgent: event.userAgent, organizationId: event.organizationId, data: event.data };
}

export const auditScreen = consoleScreen("audit", { audit: ["list"] }, async (c, _ctx, access) => {
  const { filters, query, unreadable } = readAuditFilters(c);
  const offset = queryNumber(c.req.query("offset"), 0);
  const page = await access.data.filterAuditLog(query, { limit: PAGE_SIZE, offset });
  return {
    page: "console-audit",
    filters,
    eventTypes: [...AUDITED_EVENT_TYPES],
    events: page.items.map(toRow),
    total: page.total,
    query: { offset, limit: PAGE_SIZE },
    unknownUser: page.unknownUser,
    unreadable,
  };
});

export const auditEventScreen = consoleScreen("audit", { audit: ["list"] }, async (c, _ctx, access) => {
  const event = await access.data.describeAuditEvent(c.req.param("id") ?? "");
  return event ? { page: "console-audit-event", event: toEvent(event) } : null;
});

/** The chunks as a byte stream read on demand: a slow download holds the reading of the log back. */
function streamOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** GET /console/audit/export?format=csv|jsonl&…filters: a download of the filtered log (audit:export). */
async function exportAudit(c: Context, ctx: AuthContext): Promise<Response> {
  const allowed = await consoleAccess(c, ctx, { audit: ["export"] });
  if ("answer" in allowed) return allowed.answer;
  const asked = c.req.query("format");
  if (asked !== "csv" && asked !== "jsonl") return linkFailure(c, ctx, "NOT_FOUND", 404);
  const format: AuditExportFormat = asked;
  const { query } = readAuditFilters(c);
  const name = auditExportFileName(format, allowed.access.data.now());
  return new Response(streamOf(allowed.access.data.exportAuditLog(query, format)), {
    headers: {
      "content-type": AUDIT_EXPORT_MEDIA_TYPES[format],
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}

export const AUDIT_HANDLERS = {
  showAudit: auditScreen.show,
  exportAudit,
  showAuditEvent: auditEventScreen.show,
};
