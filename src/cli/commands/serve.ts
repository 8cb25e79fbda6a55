import * as z from "zod";
import { ListenError, startServer } from "../../server.ts";
import { relyingPartyProblem } from "../../services/passkeys/relying-party.ts";
import { createCommand, loadCommandConfig, openCommandContext, UserError } from "../shared.ts";

const ServeFlags = z.object({
  port: z.coerce.number().int().min(1).max(65535).optional(),
  host: z.string().min(1).optional(),
  config: z.string().optional(),
});

export async function serve(flags: z.infer<typeof ServeFlags>): Promise<void> {
  const config = loadCommandConfig(flags, { port: flags.port, host: flags.host });
  const ctx = await openCommandContext(config, { migrate: true });
  let running: ReturnType<typeof startServer>;
  try {
    running = startServer(ctx);
  } catch (error) {
    await ctx.close();
    const address = error instanceof ListenError ? error.address : `${config.host}:${config.port}`;
    throw new UserError(`cannot listen on ${address}: ${(error as Error).message}`);
  }
  if (running.metricsServer) ctx.logger.info("metrics listening", { url: `http://${config.metrics.address}/metrics` });
  ctx.logger.success("authd listening", {
    url: `http://${config.host}:${running.server.port}`,
    base: ctx.apiURL,
    database: ctx.database.dialect,
  });
  const passkeyProblem = ctx.config.passkey.enabled ? relyingPartyProblem(ctx) : null;
  if (passkeyProblem) ctx.logger.warn(passkeyProblem);
  const stop = (signal: string) => {
    ctx.logger.info("shutting down", { signal });
    running.shutdown().then(
      () => process.exit(0),
      (error) => {
        ctx.logger.error("shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

export const serveCommand = createCommand("serve", "run the HTTP server (applies pending migrations first)")
  .option("-p, --port <port>", "listen port (AUTH_PORT)")
  .option("-H, --host <host>", "listen address (AUTH_HOST)")
  .action(async (raw) => {
    const parsed = ServeFlags.safeParse(raw);
    if (!parsed.success)
      throw new UserError(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"), 2);
    await serve(parsed.data);
  });
