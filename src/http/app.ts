import { Hono } from "hono";
import type { AuthContext } from "../context.ts";
import { dependencyError, isConnectionFailure, isOutage, isRedisFailure } from "../dependencies.ts";
import { AuthError } from "../errors.ts";
import { mountConsole } from "./console/mount.ts";
import { mountHomePage } from "./home-page.ts";
import { requestPipeline } from "./middleware/pipeline.ts";
import { rateLimitMiddleware } from "./middleware/rate-limit.ts";
import { mountIssuerDiscovery } from "./oidc-discovery.ts";
import { mountPages } from "./pages/mount.ts";
import { mountReference } from "./reference.ts";
import { mountRouteGroups } from "./route-groups.ts";
import { loadEnabledRoutes } from "./routes/index.ts";

// Middleware order: errors → the request pipeline (request id, language, metrics, request log; on API paths CORS and
// no-store, body limit and set-auth-token: middleware/pipeline.ts) → rate limit → routes. Unknown and disabled
// paths 404.

function errorResponse(error: AuthError): Response {
  const headers: Record<string, string> = { "content-type": "application/json", ...error.headers };
  return new Response(JSON.stringify(error.toBody()), { status: error.status, headers });
}

/** The Prometheus text answer, on the main listener or the metrics listener. */
export async function metricsResponse(ctx: AuthContext): Promise<Response> {
  return new Response(await ctx.metrics.render(), {
    status: 200,
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
  });
}

/**
 * A 5xx's line: an outage names the dependency (`postgres 127.0.0.1:5432/authd: connection refused`), anything
 * else is a bug and keeps its stack.
 */
function logFailure(ctx: AuthContext, message: string, cause: unknown, fields: Record<string, unknown>): void {
  if (isConnectionFailure(cause)) {
    const url = isRedisFailure(cause) ? (ctx.config.redisURL ?? "redis://") : ctx.config.databaseURL;
    ctx.logger.error(dependencyError(url, cause).message, { ...fields, error: message });
  } else ctx.logger.error(message, { ...fields, error: cause });
}

/** Seconds a client or proxy is asked to wait before trying again during an outage. */
const OUTAGE_RETRY_AFTER_SECONDS = 1;

/**
 * A dependency is down for now (refused, lost, timed out, busy): 503 with Retry-After, so clients and
 * proxies try again (another daemon, or this one in a moment) instead of taking a 500 as final. The body
 * names no dependency: that is the operator's to read, in the log line.
 */
function outageError(cause: unknown): AuthError {
  return new AuthError("SERVICE_UNAVAILABLE", {
    headers: { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

export function createApp(ctx: AuthContext): Hono {
  const app = new Hono();
  const base = ctx.config.basePath;
  app.use("*", requestPipeline(ctx, errorResponse));

  app.onError((error, c) => {
    const requestId = c.get("requestId");
    if (error instanceof AuthError) {
      if (error.status < 500) return errorResponse(error);
      logFailure(ctx, error.message, error.cause, { code: error.code, requestId });
      // A 5xx a service gave for a dependency's failure (FAILED_TO_CREATE_SESSION over a lost database).
      return errorResponse(isOutage(error.cause) ? outageError(error.cause) : error);
    }
    // Anything else is an outage (503, above) or a bug: 500 without details, cause in the log.
    logFailure(ctx, "unhandled error", error, { requestId });
    return errorResponse(isOutage(error) ? outageError(error) : new AuthError("INTERNAL_SERVER_ERROR"));
  });
  app.notFound(() => errorResponse(new AuthError("NOT_FOUND")));

  // With a metrics address, /metrics lives on that listener only (src/server.ts) and 404s here.
  if (ctx.config.metrics.enabled && !ctx.config.metrics.address) app.get("/metrics", async () => metricsResponse(ctx));

  // With rate limiting off there is nothing to count: the layer does not run for nothing on every request.
  if (ctx.config.rateLimit.enabled) app.use(`${base}/*`, rateLimitMiddleware(ctx));

  mountRouteGroups(app, ctx);
  if (ctx.config.apiReference.enabled) mountReference(app, ctx, () => loadEnabledRoutes(ctx));
  if (ctx.config.pages.enabled) mountPages(app, ctx);
  // The console draws with the pages' renderer and assets and signs in through their sign-in page.
  if (ctx.config.pages.enabled && ctx.config.console.enabled) mountConsole(app, ctx);
  if (ctx.config.oidcProvider.enabled) mountIssuerDiscovery(app, ctx);
  mountHomePage(app, ctx);
  return app;
}
