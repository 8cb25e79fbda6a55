import type { Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { CONSOLE_PATH } from "../../../ui/web/console-state.ts";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { rateLimitMiddleware } from "../middleware/rate-limit.ts";
import { pageHeaders } from "../pages/headers.ts";
import { CONSOLE_ROUTES } from "./routes.ts";

// The web console under /console (docs/console.md): GET draws a screen, POST takes a form. Every route names
// the admin permission it needs, checked on each request (frame.ts) as the /admin API checks it; each form
// post counts against the rate-limit counter of the API route it stands for, so the console is no way
// around a limit. Served with the pages' headers (CSP, no framing) while the pages and the console are on.

type Handlers = typeof import("./handlers.ts").CONSOLE_HANDLERS;
type HandlerName = keyof Handlers;

let handlers: Promise<Handlers> | undefined;
const loadHandlers = (): Promise<Handlers> => {
  handlers ??= import("./handlers.ts").then((module) => module.CONSOLE_HANDLERS);
  return handlers;
};

const FORM_LIMIT_BYTES = 64 * 1024;

export function mountConsole(app: Hono, ctx: AuthContext): void {
  const routes = CONSOLE_ROUTES.filter((route) => route.offered?.(ctx) ?? true);
  app.use(`${CONSOLE_PATH}/*`, pageHeaders(ctx));
  app.use(CONSOLE_PATH, pageHeaders(ctx));
  const limitBody = bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: () => {
      throw new AuthError("PAYLOAD_TOO_LARGE");
    },
  });
  // Each form's post (and a heavy GET: an export) counts as the API route it stands for; a path with an id
  // (/users/:id/ban) is one rule.
  const rateLimit = (limitAs: string): MiddlewareHandler => {
    const counted = rateLimitMiddleware(ctx, () => limitAs);
    // Over the limit, the admin sees the pages' page saying so (with Retry-After), not the API's JSON.
    return async (c, next) => {
      try {
        await counted(c, next);
      } catch (error) {
        if (!(error instanceof AuthError) || error.status !== 429) throw error;
        const pages = await import("../pages/handlers.ts");
        c.res = await pages.PAGE_HANDLERS.tooManyRequests(c, ctx, error);
      }
    };
  };
  const unlimited: MiddlewareHandler = (_c, next) => next();
  // The home: the first screen this admin may open, until the overview is the home.
  if (!routes.some((route) => route.path === "" && route.get))
    app.get(CONSOLE_PATH, (c) => c.redirect(`${CONSOLE_PATH}/users`, 302));
  for (const route of routes) {
    const path = `${CONSOLE_PATH}${route.path}`;
    const { get, post } = route;
    const getLimit = route.getLimitAs ? rateLimit(route.getLimitAs) : unlimited;
    if (get) app.get(path, getLimit, async (c) => (await loadHandlers())[get as HandlerName](c, ctx));
    const limit = route.limitAs ? rateLimit(route.limitAs) : unlimited;
    if (post) app.post(path, limitBody, limit, async (c) => (await loadHandlers())[post as HandlerName](c, ctx));
  }
}
