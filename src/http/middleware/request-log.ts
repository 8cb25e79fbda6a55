import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { AuthContext } from "../../context.ts";
import { loggableText } from "../../services/security-events.ts";
import { setAnswerHeader } from "../answer-headers.ts";
import { clientAddress } from "../client-address.ts";

// The request log: one info line per request, written when the answer is ready. It says what was asked
// (method, path), what was answered (status, duration), by whom (client address, user id once a session or
// API key named one) and the request id. Never a query string, a cookie, a header value, a token or a body:
// a path that carries a token (/reset-password/:token) is logged as its route pattern.

declare module "hono" {
  interface ContextVariableMap {
    /** From X-Request-Id when the caller sent a usable one, else generated; echoed in the answer. */
    requestId: string;
    /** The user the request acted as, once known (session, API key, sign-in). */
    userId: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's X-Request-Id when it is a plain token (a proxy's or the app's), else a fresh one. */
export function requestIdOf(header: string | undefined): string {
  return header && REQUEST_ID.test(header) ? header : crypto.randomUUID();
}

/** The path as logged: the route pattern when the route has parameters (they may be tokens), else the path. */
function loggedPath(c: Context): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index -= 1) {
    const route = routes[index];
    if (route.method !== "ALL") return route.path.includes(":") ? route.path : c.req.path;
  }
  return loggableText(c.req.path);
}

/** Record who the request acted as, for its log line. */
export function noteUser(c: Context, userId: string): void {
  c.set("userId", userId);
}

/** Name the request (its X-Request-Id, or a fresh one) before it is answered; returns the id. */
export function beginRequestLog(c: Context): string {
  const requestId = requestIdOf(c.req.header("x-request-id"));
  c.set("requestId", requestId);
  return requestId;
}

/** Once the answer is made: echo the request id and write the request's line. */
export function endRequestLog(c: Context, ctx: AuthContext, requestId: string, started: number): void {
  setAnswerHeader(c, "x-request-id", requestId);
  if (ctx.logger.enabled?.("info") === false) return;
  ctx.logger.info("request", {
    method: c.req.method,
    path: loggedPath(c),
    status: c.res.status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    client: clientAddress(c, ctx),
    requestId,
    userId: c.get("userId"),
  });
}
