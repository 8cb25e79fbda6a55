import { Command } from "commander";
import * as z from "zod";
import { listSessionPage } from "../../services/directory.ts";
import { deleteExpiredSessions } from "../../services/sessions/sessions.ts";
import { formatTable, writeLines } from "../format.ts";
import {
  createCommand,
  PageFlags,
  parseFlags,
  printJSON,
  resolveUserId,
  withContext,
  withPageOptions,
} from "../shared.ts";

const ListFlags = PageFlags.extend({
  user: z.string().optional(),
  all: z.boolean().optional(),
});

const sessionsList = withPageOptions(createCommand("list", "list active sessions, newest first"))
  .option("-u, --user <id-or-email>", "only this user's sessions")
  .option("--all", "include expired sessions")
  .option("--json", "print only JSON (an array of sessions, without tokens)")
  .action(async (raw) => {
    const flags = parseFlags(ListFlags, raw);
    await withContext(flags, async (ctx) => {
      const userId = flags.user ? await resolveUserId(ctx, flags.user) : undefined;
      const { items: sessions, total } = await listSessionPage(ctx, {
        userId,
        includeExpired: flags.all,
        limit: flags.limit,
        offset: flags.offset,
      });
      if (flags.json) return printJSON(sessions);
      writeLines(
        formatTable(sessions, [
          { header: "id", value: (s) => s.id },
          { header: "user", value: (s) => s.userEmail },
          { header: "ip", value: (s) => s.ipAddress },
          { header: "created", value: (s) => s.createdAt },
          { header: "expires", value: (s) => s.expiresAt },
          { header: "user agent", value: (s) => s.userAgent },
        ]),
        `${sessions.length} of ${total} session(s)`,
      );
    });
  });

const PruneFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const sessionsPrune = createCommand("prune", "delete expired sessions")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(PruneFlags, raw);
    await withContext(flags, async (ctx) => {
      const deleted = await deleteExpiredSessions(ctx);
      if (flags.json) printJSON({ deleted });
      else writeLines(`deleted ${deleted} expired session(s)`);
    });
  });

export const sessionsCommand = new Command("sessions")
  .description("list and prune sessions")
  .addCommand(sessionsList)
  .addCommand(sessionsPrune);
