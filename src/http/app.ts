import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors.ts";
import { setAuthTokenHeader } from "./bearer.ts";
import { mountHomePage } from "./home-page.ts";
import { metricsMiddleware } from "./middleware/metrics.ts";
import { rateLimitMiddleware } from "./middleware/rate-limit.ts";
import { mountReference } from "./reference.ts";
import { isTrustedURL } from "./request.ts";
import { toHandler } from "./route.ts";
import { enabledRoutes } from "./routes/index.ts";

// Middleware order: errors → metrics → no-store → CORS → body limit → rate limit → set-auth-token → routes.
// Unknown and disabled paths 404.

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

export function createApp(ctx: AuthContext): Hono {
  const app = new Hono();
  const base = ctx.config.basePath;

  app.onError((error) => {
    if (error instanceof AuthError) {
      if (error.status >= 500) ctx.logger.error(error.message, { code: error.code, cause: error.cause });
      return errorResponse(error);
    }
    // Anything else is a bug or an outage (database down): 500 without details, cause in the log.
    ctx.logger.error("unhandled error", { error });
    return errorResponse(new AuthError("INTERNAL_SERVER_ERROR"));
  });
  app.notFound(() => errorResponse(new AuthError("NOT_FOUND")));

  if (ctx.config.metrics.enabled) {
    app.use("*", metricsMiddleware(ctx));
    // With a metrics address, /metrics lives on that listener only (src/server.ts) and 404s here.
    if (!ctx.config.metrics.address) app.get("/metrics", async () => metricsResponse(ctx));
  }

  // Answers here carry session tokens, API keys and provider tokens: no browser, proxy or CDN cache may
  // keep one. Every answer gets it (simpler than listing the secret ones); a route may set its own policy.
  app.use(`${base}/*`, async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });
  app.use(
    `${base}/*`,
    cors({
      origin: (origin) => (origin && isTrustedURL(ctx, origin, false) ? origin : null),
      credentials: true,
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: ["content-type", "authorization", ...ctx.config.apiKey.headers],
      maxAge: 600,
    }),
  );
  app.use(
    `${base}/*`,
    bodyLimit({
      maxSize: ctx.config.bodyLimitBytes,
      onError: () => errorResponse(new AuthError("PAYLOAD_TOO_LARGE")),
    }),
  );
  app.use(`${base}/*`, rateLimitMiddleware(ctx));
  if (ctx.config.bearer.enabled) app.use(`${base}/*`, setAuthTokenHeader(ctx));

  const routes = enabledRoutes(ctx);
  for (const route of routes) app.on(route.method, `${base}${route.path}`, toHandler(ctx, route));
  if (ctx.config.apiReference.enabled) mountReference(app, ctx, routes);
  mountHomePage(app, ctx);
  return app;
}
