import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import {
  type AuditEventListing,
  type AuditFilter,
  describeEventData,
  describeSubject,
  followAuditLog,
  listAuditLog,
  parseTypeList,
  withSubjectEmails,
} from "../../services/audit-log.ts";
import { formatTable, writeLines } from "../format.ts";
import {
  createCommand,
  PageFlags,
  parseFlags,
  printJSON,
  resolveUserId,
  UserError,
  withContext,
  withPageOptions,
} from "../shared.ts";

// authd audit: the audit log, newest first, filtered; with --follow, new events as they are recorded
// (one JSON object per line with --json).

const AuditFlags = PageFlags.extend({
  type: z.string().optional(),
  user: z.string().optional(),
  actor: z.string().optional(),
  org: z.string().optional(),
  outcome: z.enum(["success", "failure"]).optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  follow: z.boolean().optional(),
  interval: z.coerce.number().int().min(10).default(1000),
});
type Flags = z.output<typeof AuditFlags>;

/** "2026-11-23", an ISO time, or a duration back from now ("15m", "24h", "7d"). */
export function parseWhen(text: string, now: number, flag: string): number {
  const ago = /^(\d+)([smhd])$/.exec(text);
  if (ago) return now - Number(ago[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as "s"];
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw new UserError(`--${flag}: expected a date, an ISO time or a duration like 24h`, 2);
  return parsed;
}

export async function auditFilter(ctx: AuthContext, flags: Flags): Promise<AuditFilter> {
  return {
    types: parseTypeList(flags.type),
    subjectId: flags.user ? await resolveUserId(ctx, flags.user) : undefined,
    actorId: flags.actor,
    organizationId: flags.org,
    outcome: flags.outcome,
    since: flags.since ? parseWhen(flags.since, ctx.now(), "since") : undefined,
    until: flags.until ? parseWhen(flags.until, ctx.now(), "until") : undefined,
  };
}

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

export const auditCommand = withPageOptions(
  createCommand("audit", "show the audit log (security events), newest first"),
)
  .option("-t, --type <types>", "only these event types (comma-separated)")
  .option("-u, --user <id-or-email>", "only events about this user")
  .option("--actor <id>", "only events by this actor id")
  .option("--org <id>", "only events of this organization")
  .option("--outcome <outcome>", "success or failure")
  .option("--since <when>", "from this date, ISO time or duration ago (24h, 7d)")
  .option("--until <when>", "before this date, ISO time or duration ago")
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
  });
