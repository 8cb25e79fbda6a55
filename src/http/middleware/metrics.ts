import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AuthContext } from "../../context.ts";
import type { SignInOutcome } from "../../platform/metrics.ts";

// Outermost middleware: times every request and labels it with the route pattern that answered.

function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index -= 1) {
    if (routes[index].method !== "ALL") return routes[index].path;
  }
  return "unmatched";
}

function signInOutcome(status: number): SignInOutcome {
  if (status < 300) return "success";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "error";
  return "failure";
}

export function metricsMiddleware(ctx: AuthContext): MiddlewareHandler {
  const { metrics } = ctx;
  const signInPrefix = `${ctx.config.basePath}/sign-in/`;
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const status = c.res.status;
      const route = routeLabel(c);
      metrics.observeRequest(route, c.req.method, status, (performance.now() - started) / 1000);
      if (c.req.method === "POST" && c.req.path.startsWith(signInPrefix)) metrics.countSignIn(signInOutcome(status));
    }
  };
}
