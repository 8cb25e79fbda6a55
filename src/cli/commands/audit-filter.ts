import type { Command } from "commander";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { type AuditFilter, parseTypeList } from "../../services/audit-log.ts";
import { resolveUserId, UserError } from "../shared.ts";

// The audit log's filter flags, shared by `authd audit` (a page, or --follow) and `authd audit export`.

export const AuditFilterFlags = z.object({
  type: z.string().optional(),
  user: z.string().optional(),
  actor: z.string().optional(),
  org: z.string().optional(),
  outcome: z.enum(["success", "failure"]).optional(),
  since: z.string().optional(),
  until: z.string().optional(),
});
type FilterFlags = z.output<typeof AuditFilterFlags>;

export function withAuditFilterOptions(command: Command): Command {
  return command
    .option("-t, --type <types>", "only these event types (comma-separated)")
    .option("-u, --user <id-or-email>", "only events about this user (a deleted user by id)")
    .option("--actor <id>", "only events by this actor id")
    .option("--org <id>", "only events of this organization")
    .option("--outcome <outcome>", "success or failure")
    .option("--since <when>", "from this date, ISO time or duration ago (24h, 7d)")
    .option("--until <when>", "before this date, ISO time or duration ago");
}

/** "2026-11-23", an ISO time, or a duration back from now ("15m", "24h", "7d"). */
export function parseWhen(text: string, now: number, flag: string): number {
  const ago = /^(\d+)([smhd])$/.exec(text);
  if (ago) return now - Number(ago[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as "s"];
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw new UserError(`--${flag}: expected a date, an ISO time or a duration like 24h`, 2);
  return parsed;
}

/**
 * The flags as a filter. A user named by address must exist (the log keeps ids); an id is taken as it is, so
 * the events of a deleted user can still be read.
 */
export async function auditFilter(ctx: AuthContext, flags: FilterFlags): Promise<AuditFilter> {
  return {
    types: parseTypeList(flags.type),
    subjectId: flags.user?.includes("@") ? await resolveUserId(ctx, flags.user) : flags.user,
    actorId: flags.actor,
    organizationId: flags.org,
    outcome: flags.outcome,
    since: flags.since ? parseWhen(flags.since, ctx.now(), "since") : undefined,
    until: flags.until ? parseWhen(flags.until, ctx.now(), "until") : undefined,
  };
}
