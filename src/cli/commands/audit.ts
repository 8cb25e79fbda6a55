import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import {
  type AuditEventListing,
  type AuditFilter,
  describeEventData,
  describeSubject,
  followAuditLog,
  listAuditLog,
  withSubjectEmails,
} from "../../services/audit-log.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, PageFlags, parseFlags, printJSON, withContext, withPageOptions } from "../shared.ts";
import { auditExportCommand } from "./audit-export.ts";
import { AuditFilterFlags, auditFilter, withAuditFilterOptions } from "./audit-filter.ts";

// authd audit: the audit log, newest first, filtered; with --follow, new events as they are recorded
// (one JSON object per line with --json); `authd audit export` writes the filtered log as CSV or JSON Lines.

const AuditFlags = PageFlags.extend({
  ...AuditFilterFlags.shape,
  follow: z.boolean().optional(),
  interval: z.coerce.number().int().min(10).default(1000),
});
type Flags = z.output<typeof AuditFlags>;

function printEvents(events: AuditEventListing[]): void {
  writeLines(
    formatTable(events, [
      { header: "time", value: (e) => e.createdAt },
      { header: "type", value: (e) => e.type },
      { header: "outcome", value: (e) => e.outcome },
      { header: "actor", value: (e) => (e.actor.id ? `${e.actor.type}:${e.actor.id}` : e.actor.type) },
      { header: "subject", value: describeSubject },
      { header: "org", value: (e) => e.organizationId },
      { header: "ip", value: (e) => e.ip },
      { header: "details", value: describeEventData },
    ]),
  );
}

async function follow(ctx: AuthContext, filter: AuditFilter, flags: Flags): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await followAuditLog(
      ctx,
      filter,
      async (event) => {
        if (flags.json) return void process.stdout.write(`${JSON.stringify(event)}\n`);
        const [listed] = await withSubjectEmails(ctx, [event]);
        writeLines(
          `${event.createdAt} ${event.type} ${event.outcome} ${event.actor.type} ${describeSubject(listed) ?? "-"} ${describeEventData(event)}`,
        );
      },
      { intervalMs: flags.interval, signal: controller.signal, since: filter.since },
    );
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

export const auditCommand = withAuditFilterOptions(
  withPageOptions(createCommand("audit", "show the audit log (security events), newest first")),
)
  .option("-f, --follow", "keep printing new events as they are recorded (oldest first)")
  .option("--interval <ms>", "how often --follow looks for new events", "1000")
  .option("--json", "print only JSON (one object per line with --follow)")
  .action(async (raw) => {
    const flags = parseFlags(AuditFlags, raw);
    await withContext(flags, async (ctx) => {
      const filter = await auditFilter(ctx, flags);
      if (flags.follow) return follow(ctx, filter, flags);
      const page = await listAuditLog(ctx, filter, { limit: flags.limit, offset: flags.offset });
      if (flags.json) return printJSON({ events: page.items, total: page.total });
      printEvents(await withSubjectEmails(ctx, page.items));
    });
  })
  // Options after `export` are the export's own (the same filters), not this command's.
  .enablePositionalOptions()
  .addCommand(auditExportCommand);
