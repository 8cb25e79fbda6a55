import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { AuthContext } from "../../context.ts";
import type { SignInOutcome } from "../../platform/metrics.ts";

// Times every request (the request pipeline's outer step) and labels it with the route pattern that answered.

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

/** Once the answer is made: time the request under its route's label (and count a sign-in's outcome). */
export function requestMetrics(ctx: AuthContext): (c: Context, started: number) => void {
  const { metrics } = ctx;
  const signInPrefix = `${ctx.config.basePath}/sign-in/`;
  return (c, started) => {
    const status = c.res.status;
    metrics.observeRequest(routeLabel(c), c.req.method, status, (performance.now() - started) / 1000);
    if (c.req.method === "POST" && c.req.path.startsWith(signInPrefix)) metrics.countSignIn(signInOutcome(status));
  };
}
