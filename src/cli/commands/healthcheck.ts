import * as z from "zod";
import { createCommand, loadCommandConfig, UserError } from "../shared.ts";

// For container health checks where no curl exists: GET /api/auth/ok on the configured port.

const Flags = z.object({
  url: z.url().optional(),
  timeout: z.coerce.number().int().min(100).default(3000),
  config: z.string().optional(),
});

export async function healthcheck(flags: z.infer<typeof Flags>): Promise<void> {
  const config = loadCommandConfig(flags);
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = flags.url ?? `http://${host}:${config.port}${config.basePath}/ok`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(flags.timeout) });
  } catch (error) {
    throw new UserError(`unhealthy: ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new UserError(`unhealthy: ${url} answered ${response.status}`);
  process.stdout.write("ok\n");
}

export const healthcheckCommand = createCommand(
  "healthcheck",
  "exit 0 when the local daemon answers GET /api/auth/ok (for container health checks)",
)
  .option("--url <url>", "check this URL instead")
  .option("--timeout <ms>", "give up after this many milliseconds", "3000")
  .action(async (raw) => {
    const parsed = Flags.safeParse(raw);
    if (!parsed.success)
      throw new UserError(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"), 2);
    await healthcheck(parsed.data);
  });
