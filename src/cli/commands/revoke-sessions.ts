import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { revokeSessionsOf } from "../../services/admin.ts";
import { CLI_SOURCE } from "../../services/security-events.ts";
import { writeLines } from "../format.ts";
import { promptConfirm } from "../prompt.ts";
import {
  createCommand,
  parseFlags,
  printJSON,
  progressReporter,
  resolveUserId,
  UserError,
  withContext,
} from "../shared.ts";

const RevokeFlags = z
  .object({
    user: z.string().min(1).optional(),
    all: z.boolean().optional(),
    yes: z.boolean().optional(),
    json: z.boolean().optional(),
    config: z.string().optional(),
  })
  .refine((f) => Boolean(f.user) !== Boolean(f.all), {
    message: "give exactly one of --user or --all",
    path: ["user"],
  });

/** Sign one user out everywhere, or everyone (in batches, reporting progress). Returns how many sessions went. */
export async function revokeSessions(
  ctx: AuthContext,
  target: { userIdOrEmail: string } | { all: true },
  onProgress?: (revoked: number) => void,
): Promise<number> {
  if ("all" in target) return revokeSessionsOf(ctx, { all: true, onProgress }, CLI_SOURCE);
  return revokeSessionsOf(ctx, { userId: await resolveUserId(ctx, target.userIdOrEmail) }, CLI_SOURCE);
}

export const revokeSessionsCommand = createCommand("revoke-sessions", "sign out one user everywhere, or every user")
  .option("-u, --user <id-or-email>", "the user whose sessions go")
  .option("--all", "every session of every user (asks first unless --yes)")
  .option("-y, --yes", "do not ask for confirmation")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(RevokeFlags, raw);
    if (flags.all && !flags.yes) {
      if (!process.stdin.isTTY)
        throw new UserError("--all revokes every session: confirm with --yes when not on a terminal", 2);
      if (!(await promptConfirm("Revoke every session of every user?")))
        throw new UserError("cancelled, nothing revoked");
    }
    const progress = progressReporter(flags);
    await withContext(flags, async (ctx) => {
      const revoked = await revokeSessions(
        ctx,
        flags.all ? { all: true } : { userIdOrEmail: flags.user as string },
        (n) => progress(`revoked ${n} session(s)…`),
      );
      if (flags.json) printJSON({ revoked });
      else writeLines(`revoked ${revoked} session(s)`);
    });
  });
