import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuthContext } from "../context.ts";
import { dependencyError, isConnectionFailure, isOutage, isRedisFailure } from "../dependencies.ts";
import { AuthError } from "../errors.ts";
import { withRequestLanguage } from "../platform/request-language.ts";
import { setAuthTokenHeader } from "./bearer.ts";
import { mountConsole } from "./console/mount.ts";
import { mountHomePage } from "./home-page.ts";
import { corsMiddleware } from "./middleware/cors.ts";
import { metricsMiddleware } from "./middleware/metrics.ts";
import { rateLimitMiddleware } from "./middleware/rate-limit.ts";
import { requestLogMiddleware } from "./middleware/request-log.ts";
import { mountIssuerDiscovery } from "./oidc-discovery.ts";
import { mountPages } from "./pages/mount.ts";
import { mountReference } from "./reference.ts";
import { mountRouteGroups } from "./route-groups.ts";
import { loadEnabledRoutes } from "./routes/index.ts";

// Middleware order: errors → request log → request language → metrics → CORS and no-store → body limit → rate limit →
// set-auth-token → routes. Unknown and disabled paths 404.

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
  app.use("*", requestLogMiddleware(ctx));
  // A mail this request causes is written in the language it asked in (services/mail/delivery.ts).
  app.use("*", (c, next) => withRequestLanguage(c.req.header("accept-language"), next));

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

  if (ctx.config.metrics.enabled) {
    app.use("*", metricsMiddleware(ctx));
    // With a metrics address, /metrics lives on that listener only (src/server.ts) and 404s here.
    if (!ctx.config.metrics.address) app.get("/metrics", async () => metricsResponse(ctx));
  }

  app.use(`${base}/*`, corsMiddleware(ctx));
  const limitBody = bodyLimit({
    maxSize: ctx.config.bodyLimitBytes,
    onError: () => errorResponse(new AuthError("PAYLOAD_TOO_LARGE")),
  });
  // A GET has no body to limit (the routes never read one), and with rate limiting off there is nothing to
  // count: neither layer runs for nothing on every session read.
  app.use(`${base}/*`, (c, next) => (c.req.method === "GET" ? next() : limitBody(c, next)));
  if (ctx.config.rateLimit.enabled) app.use(`${base}/*`, rateLimitMiddleware(ctx));
  if (ctx.config.bearer.enabled) app.use(`${base}/*`, setAuthTokenHeader(ctx));

  mountRouteGroups(app, ctx);
  if (ctx.config.apiReference.enabled) mountReference(app, ctx, () => loadEnabledRoutes(ctx));
  if (ctx.config.pages.enabled) mountPages(app, ctx);
  // The console draws with the pages' renderer and assets and signs in through their sign-in page.
  if (ctx.config.pages.enabled && ctx.config.console.enabled) mountConsole(app, ctx);
  if (ctx.config.oidcProvider.enabled) mountIssuerDiscovery(app, ctx);
  mountHomePage(app, ctx);
  return app;
}
