import * as z from "zod";
import { createCommand, parseFlags, UserError, withContext } from "../shared.ts";

const AdminFlags = z.object({ config: z.string().optional() });

export const adminCommand = createCommand(
  "admin",
  "the interactive terminal admin UI (users, organizations, sessions)",
).action(async (raw) => {
  const flags = parseFlags(AdminFlags, raw);
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new UserError("authd admin needs a terminal; for scripts use users, sessions, api-keys and orgs commands", 2);
  // Ink draws only a final frame when it sees CI or CONTINUOUS_INTEGRATION (read once, when Ink loads).
  // This command only runs on a terminal, so it is interactive whatever those variables say.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  // Loaded on demand: the other commands never pay for React and Ink.
  const { renderAdmin } = await import("../../../ui/terminal/render.tsx");
  // Log lines (security events at info, when AUTH_LOG_LEVEL asks for them) would be drawn over the UI if
  // written to stderr directly; through console.error, Ink prints them above its frame.
  await withContext(flags, (ctx) => renderAdmin(ctx), { writeLog: (line) => console.error(line) });
});
