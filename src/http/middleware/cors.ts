import type { MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { addExposed, setAnswerHeader } from "../answer-headers.ts";
import { corsOrigin } from "../request.ts";

// Credentialed CORS for the API; headers added to answers go through answer-headers.ts.

/**
 * Cache-Control: no-store on every answer that sets no policy of its own, and credentialed CORS for trusted origins (corsOrigin): preflights answer 204 with the allowed methods and
 * headers; every other answer, errors included, carries the allowed origin (when the caller's is trusted),
 * Access-Control-Allow-Credentials and Vary: Origin.
 */
export function corsMiddleware(ctx: AuthContext): MiddlewareHandler {
  const allowHeaders = ["content-type", "authorization", ...ctx.config.apiKey.headers].join(",");
  return async (c, next) => {
    const origin = c.req.header("origin");
    const allowOrigin = origin ? corsOrigin(c, ctx, origin) : null;
    if (c.req.method === "OPTIONS") {
      const headers = new Headers();
      if (allowOrigin) headers.set("access-control-allow-origin", allowOrigin);
      headers.set("access-control-allow-credentials", "true");
      headers.set("vary", "Origin, Access-Control-Request-Headers");
      headers.set("access-control-max-age", "600");
      headers.set("access-control-allow-methods", "GET,POST,OPTIONS");
      headers.set("access-control-allow-headers", allowHeaders);
      headers.set("cache-control", "no-store");
      return new Response(null, { status: 204, statusText: "No Content", headers });
    }
    await next();
    // Answers here carry session tokens, API keys and provider tokens: no browser, proxy or CDN cache may
    // keep one. Every answer gets it (simpler than listing the secret ones); a route may set its own policy.
    if (!c.res.headers.has("cache-control")) setAnswerHeader(c, "cache-control", "no-store");
    if (allowOrigin) setAnswerHeader(c, "access-control-allow-origin", allowOrigin);
    setAnswerHeader(c, "access-control-allow-credentials", "true");
    setAnswerHeader(c, "vary", "Origin", true);
    const pending = c.get("exposedHeaders");
    if (pending && pending.length > 0) {
      addExposed(c, pending);
      c.set("exposedHeaders", []);
    }
  };
}
