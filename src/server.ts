import type { Server } from "bun";
import type { AuthContext } from "./context.ts";
import { createApp, metricsResponse } from "./http/app.ts";
import type { ServerEnv } from "./http/client-address.ts";
import { startApiKeyUsageWriter } from "./services/api-keys/usage.ts";
import { startAuditWorker } from "./services/webhooks/audit-worker.ts";

// The only module that starts HTTP servers: the main listener, and the metrics listener when
// AUTH_METRICS_ADDRESS moves /metrics off the main one.

export interface RunningServer {
  server: Server<undefined>;
  url: string;
  /** The metrics listener, when metrics.address is set. */
  metricsServer?: Server<undefined>;
  /** Settles when the start-up work that follows listening (the audit worker's first pass) has ended. */
  startedUp: Promise<void>;
  /** Stop accepting, let requests in flight finish (up to the grace period), close the context. */
  shutdown(): Promise<void>;
}

/** A listener that could not start, with the address it tried (for the operator's one line). */
export class ListenError extends Error {
  constructor(
    readonly address: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "ListenError";
  }
}

/** "127.0.0.1:9464" or "[::1]:9464" into Bun's hostname and port. */
export function splitAddress(address: string): { hostname: string; port: number } {
  const colon = address.lastIndexOf(":");
  return { hostname: address.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port: Number(address.slice(colon + 1)) };
}

function startMetricsServer(ctx: AuthContext, address: string): Server<undefined> {
  try {
    return Bun.serve({
      ...splitAddress(address),
      fetch: (request) =>
        new URL(request.url).pathname === "/metrics" && request.method === "GET"
          ? metricsResponse(ctx)
          : Response.json({ code: "NOT_FOUND", message: "Not Found" }, { status: 404 }),
    });
  } catch (error) {
    throw new ListenError(address, error);
  }
}

/** The request's ServerEnv, whose remoteAddress is looked up on the socket once, when first read. */
function peerEnv(request: Request, srv: Server<undefined>): ServerEnv {
  let known = false;
  let address: string | null = null;
  return {
    get remoteAddress() {
      if (!known) {
        address = srv.requestIP(request)?.address ?? null;
        known = true;
      }
      return address;
    },
  };
}

/** Handlers still running, whether or not their client is still there to read the answer. */
class HandlersInFlight {
  #running = 0;
  #waiting: (() => void)[] = [];

  track(answer: Response | Promise<Response>): Response | Promise<Response> {
    if (!(answer instanceof Promise)) return answer;
    this.#running += 1;
    const done = () => {
      this.#running -= 1;
      if (this.#running === 0) for (const resolve of this.#waiting.splice(0)) resolve();
    };
    answer.then(done, done);
    return answer;
  }

  /** Resolves once no handler runs. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

export interface StartOptions {
  port?: number;
  host?: string;
  /** Called as each request arrives on the main listener, before it is handled. */
  onRequest?: () => void;
}

export function startServer(ctx: AuthContext, options: StartOptions = {}): RunningServer {
  const app = createApp(ctx);
  const hostname = options.host ?? ctx.config.host;
  const port = options.port ?? ctx.config.port;
  const onRequest = options.onRequest ?? (() => {});
  const handlers = new HandlersInFlight();
  let server: Server<undefined>;
  try {
    server = Bun.serve({
      port,
      hostname,
      // The peer's address is read from the request Bun received: middleware may replace the Request object
      // (the body limit does), and the copy has no socket. See src/http/client-address.ts. It is read when
      // first asked for (most answers never need it, and asking costs a lookup on the socket), then kept.
      fetch: (request, srv) => {
        onRequest();
        return handlers.track(app.fetch(request, peerEnv(request, srv)));
      },
    });
  } catch (error) {
    throw new ListenError(`${hostname}:${port}`, error);
  }
  const { enabled, address } = ctx.config.metrics;
  let metricsServer: Server<undefined> | undefined;
  try {
    if (enabled && address) metricsServer = startMetricsServer(ctx, address);
  } catch (error) {
    server.stop(true);
    throw error;
  }
  const worker = startAuditWorker(ctx);
  // Copies the Redis counters of API keys from the start, a killed daemon's included (see api-keys/usage.ts).
  startApiKeyUsageWriter(ctx);
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      metricsServer?.stop(true);
      const grace = new Promise<void>((resolve) => setTimeout(resolve, ctx.config.shutdownGraceMs).unref());
      // Bun's stop(false) waits for the answers it still has to send; a handler whose client went away is
      // waited for too, so its work (a write, a count) is not cut off by the database closing under it.
      await Promise.race([Promise.all([server.stop(false), handlers.idle()]), grace]);
      server.stop(true);
      await worker.stop();
      await ctx.close();
    })();
    return stopping;
  };
  const url = `http://${server.hostname}:${server.port}`;
  return { server, metricsServer, url, startedUp: worker.firstPass, shutdown };
}
