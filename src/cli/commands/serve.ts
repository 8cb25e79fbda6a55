import * as z from "zod";
import type { Config } from "../../config/schema.ts";
import type { AuthContext } from "../../context.ts";
import { testScryptCost } from "../../crypto/password.ts";
import { DependencyError } from "../../dependencies.ts";
import { createLogger } from "../../logger.ts";
import { firstBusyWindow } from "../../platform/first-busy.ts";
import { ListenError, type RunningServer, startServer } from "../../server.ts";
import { relyingPartyProblem } from "../../services/passkeys/relying-party.ts";
import { resealUnderCurrentSecret } from "../../services/secret-rotation.ts";
import {
  assertMailTemplates,
  createCommand,
  loadCommandConfig,
  openCommandContext,
  UserError,
  warnUnknownVariables,
} from "../shared.ts";

const ServeFlags = z.object({
  port: z.coerce
    .number({ error: "expected a port number between 1 and 65535" })
    .int("expected a port number between 1 and 65535")
    .min(1, "expected a port number between 1 and 65535")
    .max(65535, "expected a port number between 1 and 65535")
    .optional(),
  host: z.string().min(1).optional(),
  config: z.string().optional(),
});

const MAX_DELAY_MS = 5000;

/**
 * Open the context, retrying while a dependency is not up yet (a Postgres still starting beside the daemon):
 * one warn line per failed attempt, until startupTimeoutSeconds. Wrong passwords and names fail at once.
 */
export async function openWithRetries(config: Config): Promise<AuthContext> {
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  warnUnknownVariables(log);
  const deadline = Date.now() + config.startupTimeoutSeconds * 1000;
  for (let attempt = 1, delay = 500; ; attempt += 1, delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await openCommandContext(config, { migrate: true, checkConnections: "all" });
    } catch (error) {
      if (!(error instanceof DependencyError) || !error.retryable) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DependencyError(
          error.target,
          `${error.reason} (gave up after ${attempt} attempt${attempt > 1 ? "s" : ""} in ${config.startupTimeoutSeconds} s; AUTH_STARTUP_TIMEOUT)`,
        );
      }
      const wait = Math.min(delay, left);
      log.warn(`${error.message}; retrying in ${(wait / 1000).toFixed(1)} s`, { attempt, dependency: error.target });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** With AUTH_SECRET_PREVIOUS set: stored values sealed under an old secret are sealed under the current one. */
async function resealAfterRotation(ctx: AuthContext): Promise<void> {
  if (ctx.acceptedSecrets.length < 2) return;
  const counts = await resealUnderCurrentSecret(ctx);
  ctx.logger.info("AUTH_SECRET_PREVIOUS: stored values sealed again under AUTH_SECRET", { ...counts });
  if (counts.unreadable > 0)
    ctx.logger.warn(
      "AUTH_SECRET_PREVIOUS: some stored values open under none of the secrets; add the secret they were sealed with",
      { unreadable: counts.unreadable },
    );
}

/**
 * Once started (listening, and the audit worker's first pass done: the configured endpoints synced, the log
 * pruned), drop what only start-up needed. Start-up runs most of the code once (the configuration checked,
 * migrations compared, routes mounted); its bytecode and the objects it left stay in the heap until the engine
 * is told to let go. Bun.shrink() deletes the compiled code of every function (a function called again is
 * loaded anew from the executable's bytecode, its counters from zero) and runs a full collection. On a turn of
 * the event loop of its own: while a collection may still be running the engine skips the code
 * (bench/README.md, "Idle memory (issue 34, round four)").
 */
function releaseStartUpMemory(running: RunningServer): void {
  running.startedUp.then(() => setTimeout(() => Bun.shrink(), 0));
}

/** Requests within one second that make the daemon busy: from then on its hot paths are compiled. */
const BUSY_REQUESTS_PER_SECOND = 50;

/**
 * serve starts with the JIT held back (src/cli/main.ts), so run-once start-up code is not compiled. An idle
 * daemon keeps it so: its timers' passes and health checks stay in the interpreter, and the JIT's compilers
 * and code (~4 MB resident) are not paged in for them. The first busy second restores the normal policy, and
 * hot request paths compile as usual.
 */
function restoreJITWhenBusy(): () => void {
  return firstBusyWindow(BUSY_REQUESTS_PER_SECOND, 1000, () => Bun.unsafe.setJITPolicy(1));
}

export async function serve(flags: z.infer<typeof ServeFlags>): Promise<void> {
  // A published or guessable secret or server token is refused before anything listens (secret-rules.ts).
  const config = loadCommandConfig(flags, { port: flags.port, host: flags.host }, { refuseWeakSecrets: true });
  await assertMailTemplates(config);
  const ctx = await openWithRetries(config);
  await resealAfterRotation(ctx);
  let running: ReturnType<typeof startServer>;
  try {
    running = startServer(ctx, { onRequest: restoreJITWhenBusy() });
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
  releaseStartUpMemory(running);
  const passkeyProblem = ctx.config.passkey.enabled ? relyingPartyProblem(ctx) : null;
  if (passkeyProblem) ctx.logger.warn(passkeyProblem);
  if (testScryptCost() !== null)
    ctx.logger.warn(
      "AUTHD_TEST_SCRYPT_COST is set: passwords are hashed at a test suite's cost; never set it in production",
    );
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
