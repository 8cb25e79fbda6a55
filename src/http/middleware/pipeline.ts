import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { withRequestLanguage } from "../../platform/request-language.ts";
import { addAuthTokenHeader } from "../bearer.ts";
import { corsSteps } from "./cors.ts";
import { requestMetrics } from "./metrics.ts";
import { beginRequestLog, endRequestLog } from "./request-log.ts";

// The per-request work every answer shares, as one layer with its steps in a fixed order, instead of a
// middleware per step: each layer costs an async frame and promises on every request, and on a session
// read these were a third of the daemon's own time.
//
// Every request: name it (request id) → answer it in the language it asked in (a mail it causes is written
//   in that language, services/mail/delivery.ts) → … → time it (metrics) → echo the id and log it.
// API paths (the base path and below) also: CORS (a preflight is answered here) → the body limit (not on
//   GET: the routes never read a GET's body) → the rate limit and the routes (the layers after this one)
//   → set-auth-token (bearer) → the CORS and no-store headers.

/** The request pipeline; `payloadTooLarge` renders the refusal of a body over the limit. */
export function requestPipeline(ctx: AuthContext, payloadTooLarge: (error: AuthError) => Response): MiddlewareHandler {
  const base = ctx.config.basePath;
  const isAPIPath = (path: string) => path === base || path.startsWith(`${base}/`);
  const metrics = ctx.config.metrics.enabled ? requestMetrics(ctx) : null;
  const cors = corsSteps(ctx);
  const authToken = ctx.config.bearer.enabled ? addAuthTokenHeader(ctx) : null;
  const maxSize = ctx.config.bodyLimitBytes;
  const tooLarge = () => payloadTooLarge(new AuthError("PAYLOAD_TOO_LARGE"));
  const streamedLimit = bodyLimit({ maxSize, onError: tooLarge });
  /**
   * The body limit. A body with a Content-Length is judged by it, as hono's bodyLimit judges it, without
   * touching the body: asking a request for its body stream costs about 3 µs more per small JSON POST
   * (a bare Bun.serve, measured), since the body is then read through a stream. One without a length
   * (chunked) is counted as it streams in.
   */
  const limitBody = (c: Context, next: Next): ReturnType<typeof streamedLimit> => {
    const headers = c.req.raw.headers;
    const length = headers.get("content-length");
    if (headers.has("transfer-encoding") || length === null) return streamedLimit(c, next);
    return Number.parseInt(length, 10) > maxSize ? Promise.resolve(tooLarge()) : next();
  };

  async function answerAPI(c: Context, next: Next): Promise<void> {
    const allowOrigin = cors.allowedOrigin(c);
    if (c.req.method === "OPTIONS") {
      c.res = cors.preflight(allowOrigin);
      return;
    }
    if (c.req.method === "GET") await next();
    else {
      // The limit's refusal is its own answer (the routes never ran).
      const refused = await limitBody(c, next);
      if (refused instanceof Response) c.res = refused;
    }
    authToken?.(c);
    cors.finish(c, allowOrigin);
  }

  const answer = (c: Context, next: Next): Promise<void> => (isAPIPath(c.req.path) ? answerAPI(c, next) : next());

  return async (c, next) => {
    const started = performance.now();
    const requestId = beginRequestLog(c);
    try {
      const language = c.req.header("accept-language");
      await (language ? withRequestLanguage(language, () => answer(c, next)) : answer(c, next));
    } finally {
      metrics?.(c, started);
      endRequestLog(c, ctx, requestId, started);
    }
  };
}
