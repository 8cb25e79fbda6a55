import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError, isAuthError } from "../../errors.ts";
import { splitRoles } from "../../services/access-control.ts";
import { decideForwardAuth, type ForwardAuthRequirements } from "../../services/forward-auth/forward-auth.ts";
import { forwardedRequestURL } from "../client-address.ts";
import { singleLine } from "../fields.ts";
import { isTrustedURL } from "../request.ts";
import { defineRoute } from "../route.ts";
import { type ResolvedSession, resolveSession } from "../session.ts";

// authd's own check for reverse proxies (nginx auth_request, Caddy forward_auth, Traefik forwardAuth): the
// proxy asks with the client's headers; 200 with the user in headers lets the request through, anything
// else is answered to the client. See docs/proxies.md.

const ForwardAuthQuery = z.object({
  role: singleLine().optional().describe("comma-separated user roles, any of which lets the caller through"),
  organization: singleLine().optional().describe("an organization (id or slug) the caller must be a member of"),
  organizationRole: singleLine().optional().describe("comma-separated roles in that organization, any of which"),
  mode: z
    .enum(["redirect", "auth-request"])
    .optional()
    .describe("auth-request (nginx): a browser without a session gets 401 with the sign-in URL in Location"),
});

type ForwardAuthInput = z.output<typeof ForwardAuthQuery>;

function requirementsOf(query: ForwardAuthInput): ForwardAuthRequirements {
  return {
    roles: splitRoles(query.role),
    organization: query.organization || null,
    organizationRoles: splitRoles(query.organizationRole),
  };
}

// Header values are bytes: anything beyond printable ASCII (and % itself) is percent-encoded as UTF-8, so a
// name like "José" arrives as "Jos%C3%A9" (decodeURIComponent gives it back) and nothing can split a header.
function headerValue(value: string): string {
  return value.replace(/[^\x20-\x24\x26-\x7e]/gu, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return "%EF%BF%BD"; // a lone surrogate: U+FFFD
    }
  });
}

function allowedResponse(ctx: AuthContext, current: ResolvedSession): Response {
  const names = ctx.config.forwardAuth.headers;
  const headers = new Headers({ "cache-control": "no-store" });
  headers.set(names.userId, headerValue(current.user.id));
  headers.set(names.email, headerValue(current.user.email));
  headers.set(names.name, headerValue(current.user.name));
  // Every header is sent, empty when there is nothing to say (no role; an API key, which stands in for a
  // session but is none), so a proxy that copies present headers replaces a client's forged one anyway.
  headers.set(names.role, headerValue(current.user.role ?? ""));
  headers.set(names.sessionId, current.source === "api-key" ? "" : current.session.id);
  return new Response(null, { status: 200, headers });
}

/**
 * The sign-in page a browser without a session goes to: the configured one, else authd's own when the
 * pages are on (its `redirect` parameter carries the page to return to), else none (401).
 */
function signInTarget(ctx: AuthContext): { url: string; returnParameter: string } | null {
  const { signInURL, returnParameter } = ctx.config.forwardAuth;
  if (signInURL) return { url: signInURL, returnParameter };
  if (!ctx.config.pages.enabled) return null;
  return { url: new URL(`${ctx.config.pages.basePath}/sign-in`, ctx.baseURL).href, returnParameter: "redirect" };
}

/** Where a browser without a session is sent: the sign-in URL, with the page to return to when it is safe. */
function signInLocation(c: Context, ctx: AuthContext): string | null {
  const target = signInTarget(ctx);
  if (!target) return null;
  const accept = c.req.header("accept") ?? "";
  if (!accept.toLowerCase().includes("text/html")) return null;
  const { url: signInURL, returnParameter } = target;
  const location = new URL(signInURL);
  const back = forwardedRequestURL(c, ctx);
  // Only back to a trusted origin: otherwise the sign-in page would become an open redirect.
  if (back && isTrustedURL(ctx, back, false)) location.searchParams.set(returnParameter, back);
  return location.href;
}

function unauthenticatedResponse(c: Context, ctx: AuthContext, mode: ForwardAuthInput["mode"]): Response {
  const location = signInLocation(c, ctx);
  if (!location) throw new AuthError("UNAUTHORIZED");
  const headers = { location, "cache-control": "no-store" };
  // nginx's auth_request passes on only 2xx, 401 and 403: its config turns this 401 into the redirect.
  return new Response(null, { status: mode === "auth-request" ? 401 : 302, headers });
}

/** The caller's session, or null: a refused API key or a stale token is simply no session here. */
async function sessionOrNull(c: Context, ctx: AuthContext): Promise<ResolvedSession | null> {
  try {
    // No refresh: the proxy drops the cookie a refresh would write, and every page load would be a write.
    return await resolveSession(c, ctx, { disableRefresh: true });
  } catch (error) {
    if (isAuthError(error) && error.status < 500) return null;
    throw error;
  }
}

export const forwardAuthRoute = defineRoute({
  method: "GET",
  path: "/forward-auth",
  summary: "Check a request for a reverse proxy (auth_request, forward_auth, forwardAuth)",
  description:
    "200 with the user in headers (X-Auth-User-Id, -Email, -Name, -Role, X-Auth-Session-Id by default) for a live session from the cookie, a bearer token or an API key; 403 when the role or organization asked for is missing; otherwise 401, or for a browser (Accept: text/html) a redirect to the configured sign-in URL.",
  tags: ["Forward auth"],
  query: ForwardAuthQuery,
  handler: async ({ c, ctx, query }) => {
    const current = await sessionOrNull(c, ctx);
    if (!current) return unauthenticatedResponse(c, ctx, query.mode);
    const decision = await decideForwardAuth(ctx, current.user, requirementsOf(query));
    if (decision === "unauthenticated") return unauthenticatedResponse(c, ctx, query.mode);
    if (decision === "forbidden") throw new AuthError("ACCESS_DENIED");
    return allowedResponse(ctx, current);
  },
});
