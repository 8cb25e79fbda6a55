import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { addExposed, setAnswerHeader } from "../answer-headers.ts";
import { corsOrigin } from "../request.ts";

// Credentialed CORS for the API, as two steps of the request pipeline; headers added to answers go through
// answer-headers.ts.
//
// Cache-Control: no-store on every answer that sets no policy of its own, and credentialed CORS for trusted
// origins (corsOrigin): preflights answer 204 with the allowed methods and headers; every other answer, errors
// included, carries the allowed origin (when the caller's is trusted), Access-Control-Allow-Credentials and
// Vary: Origin.

export interface CorsSteps {
  /** The origin to allow for this request (the caller's, when it is trusted), or null. */
  allowedOrigin(c: Context): string | null;
  /** A preflight's whole answer. */
  preflight(allowOrigin: string | null): Response;
  /** The headers every other answer gets once it is made. */
  finish(c: Context, allowOrigin: string | null): void;
}

export function corsSteps(ctx: AuthContext): CorsSteps {
  const allowHeaders = ["content-type", "authorization", ...ctx.config.apiKey.headers].join(",");
  return {
    allowedOrigin(c) {
      const origin = c.req.header("origin");
      return origin ? corsOrigin(c, ctx, origin) : null;
    },
    preflight(allowOrigin) {
      const headers = new Headers();
      if (allowOrigin) headers.set("access-control-allow-origin", allowOrigin);
      headers.set("access-control-allow-credentials", "true");
      headers.set("vary", "Origin, Access-Control-Request-Headers");
      headers.set("access-control-max-age", "600");
      headers.set("access-control-allow-methods", "GET,POST,OPTIONS");
      headers.set("access-control-allow-headers", allowHeaders);
      headers.set("cache-control", "no-store");
      return new Response(null, { status: 204, statusText: "No Content", headers });
    },
    finish(c, allowOrigin) {
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
    },
  };
}
