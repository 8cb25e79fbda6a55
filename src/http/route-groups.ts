import type { Context, Hono } from "hono";
import type { AuthContext } from "../context.ts";
import { toHandler } from "./route.ts";
import { enabledGroups, isPathEnabled, type RouteGroup, routeKey } from "./routes/index.ts";
import { ROUTE_PATHS } from "./routes/route-paths.generated.ts";

// Mounting the routes: every enabled group's paths at start (from route-paths.generated.ts), each group's
// modules on the first request to one of its routes (routes/index.ts says why). Once loaded, a route answers
// through its handler with one check more than if it had been mounted directly.

type Handler = (c: Context) => Promise<Response>;

/** For each route key of the group, a handler that loads the group the first time any of its routes is asked for. */
function lazyHandlers(ctx: AuthContext, group: RouteGroup): (key: string) => Handler {
  let loading: Promise<Map<string, Handler>> | undefined;
  const load = () =>
    (loading ??= group
      .load()
      .then((routes) => new Map(routes.map((route) => [routeKey(route), toHandler(ctx, route)] as const))));
  return (key) => {
    let loaded: Handler | undefined;
    const first = async (c: Context) => {
      loaded = (await load()).get(key);
      if (!loaded) throw new Error(`${key} is not among the ${group.name} routes: run \`npm run route-errors\``);
      return loaded(c);
    };
    return (c) => (loaded ? loaded(c) : first(c));
  };
}

/** Mount the routes the configuration enables under the base path; AUTH_DISABLED_PATHS stay unmounted (404). */
export function mountRouteGroups(app: Hono, ctx: AuthContext): void {
  const base = ctx.config.basePath;
  for (const group of enabledGroups(ctx)) {
    const handlerFor = lazyHandlers(ctx, group);
    for (const key of ROUTE_PATHS[group.name]) {
      const [method, path] = key.split(" ");
      if (isPathEnabled(ctx, path)) app.on(method, `${base}${path}`, handlerFor(key));
    }
  }
}
