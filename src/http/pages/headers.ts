import type { MiddlewareHandler } from "hono";
import type { AuthContext } from "../../context.ts";
import { setAnswerHeader } from "../answer-headers.ts";

// What every answer under the pages' path carries: a policy that runs only the daemon's own script and
// style (no inline code, no eval, no framing, forms only to this origin), and headers that keep the page's
// URL (which may hold a token) from other origins.

declare module "hono" {
  interface ContextVariableMap {
    /** Origins a page's forms may be sent on to besides its own (the sign-in page's social providers). */
    pageFormTargets: string[];
    /**
     * A document that is no page but is shown inside one (the outbox's view of a mail's HTML part): its own
     * policy, and framing by the pages' origin only.
     */
    framedDocumentPolicy: string;
  }
}

export function pageSecurityPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    `form-action 'self'${formTargets.map((target) => ` ${target}`).join("")}`,
  ].join("; ");
}

export function pageHeaders(ctx: AuthContext): MiddlewareHandler {
  const policy = pageSecurityPolicy();
  const https = ctx.baseURL.startsWith("https://");
  return async (c, next) => {
    await next();
    const targets = c.get("pageFormTargets");
    const framed = c.get("framedDocumentPolicy");
    setAnswerHeader(c, "content-security-policy", framed ?? (targets?.length ? pageSecurityPolicy(targets) : policy));
    setAnswerHeader(c, "x-content-type-options", "nosniff");
    setAnswerHeader(c, "x-frame-options", framed ? "SAMEORIGIN" : "DENY");
    setAnswerHeader(c, "referrer-policy", "same-origin");
    setAnswerHeader(c, "cross-origin-opener-policy", "same-origin");
    setAnswerHeader(c, "permissions-policy", "camera=(), microphone=(), geolocation=()");
    if (https) setAnswerHeader(c, "strict-transport-security", "max-age=31536000; includeSubDomains");
    if (!c.res.headers.has("cache-control")) setAnswerHeader(c, "cache-control", "no-store");
  };
}
