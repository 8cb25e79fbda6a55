import * as z from "zod";
import { createCommand, loadCommandConfig, parseFlags, UserError } from "../shared.ts";

// For container health checks where no curl exists: readiness, GET /api/auth/ready on the configured port
// (the database, and Redis when configured, answer), not mere liveness (/ok): a daemon whose database is gone
// is taken out of rotation.

const Flags = z.object({
  url: z.url().optional(),
  timeout: z.coerce.number().int().min(100).default(3000),
  config: z.string().optional(),
});

/** ` (database down)` from /ready's details, when the answer names what is down. */
async function whatIsDown(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { details?: Record<string, unknown> } | null;
  const down = Object.entries(body?.details ?? {})
    .filter(([name, up]) => name !== "ready" && up === false)
    .map(([name]) => name);
  return down.length ? ` (${down.join(", ")} down)` : "";
}

/**
 * What --url names: a daemon (`http://host:port`, checked at the configured base path's /ready), its API base
 * (`http://host:port/api/auth`, checked at its /ready) or, as before, the endpoint itself (a path ending in
 * /ready, or /ok for liveness only). A bare daemon address checked as given would hit `/`, which answers
 * whether or not the database does, and pass a daemon that cannot serve anyone.
 */
export function checkedURL(given: string, basePath: string): string {
  const url = new URL(given);
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/(ready|ok)$/.test(path)) return url.href;
  url.pathname = `${path || basePath.replace(/\/+$/, "")}/ready`;
  return url.href;
}

export async function healthcheck(flags: z.infer<typeof Flags>): Promise<void> {
  const config = loadCommandConfig(flags);
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = flags.url
    ? checkedURL(flags.url, config.basePath)
    : `http://${host}:${config.port}${config.basePath}/ready`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(flags.timeout) });
  } catch (error) {
    throw new UserError(`unhealthy: ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new UserError(`unhealthy: ${url} answered ${response.status}${await whatIsDown(response)}`);
  process.stdout.write("ok\n");
}

export const healthcheckCommand = createCommand(
  "healthcheck",
  "exit 0 when the local daemon is ready: GET /api/auth/ready (for container health checks)",
)
  .option("--url <url>", "check this daemon instead: http://host:port or its API base (…/api/auth); /ready is added")
  .option("--timeout <ms>", "give up after this many milliseconds", "3000")
  .action(async (raw) => {
    await healthcheck(parseFlags(Flags, raw));
  });
