import type { Server } from "bun";
import type { AuthContext } from "./context.ts";
import { createApp } from "./http/app.ts";
import type { ServerEnv } from "./http/client-address.ts";
import { startAuditWorker } from "./services/webhook-worker.ts";

// The only module that starts an HTTP server.

export interface RunningServer {
  server: Server<undefined>;
  url: string;
  /** Stop accepting, let requests in flight finish (up to the grace period), close the context. */
  shutdown(): Promise<void>;
}

export function startServer(ctx: AuthContext, options: { port?: number; host?: string } = {}): RunningServer {
  const app = createApp(ctx);
  const server = Bun.serve({
    port: options.port ?? ctx.config.port,
    hostname: options.host ?? ctx.config.host,
    // The peer's address is read here, on the request Bun received: middleware may replace the Request
    // object (the body limit does), and the copy has no socket. See src/http/client-address.ts.
    fetch: (request, srv) =>
      app.fetch(request, { remoteAddress: srv.requestIP(request)?.address ?? null } satisfies ServerEnv),
  });
  const worker = startAuditWorker(ctx);
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, ctx.config.shutdownGraceMs).unref());
      await Promise.race([server.stop(false), grace]);
      server.stop(true);
      await worker.stop();
      await ctx.close();
    })();
    return stopping;
  };
  return { server, url: `http://${server.hostname}:${server.port}`, shutdown };
}
