import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import {
  type AuthorizationParams,
  type AuthorizationRequest,
  type BrowserSession,
  decide,
  loginMarker,
  parseAuthorizationRequest,
  REQUEST_PARAMETERS,
  UnsafeAuthorizationRequest,
} from "../services/oidc-provider/authorization.ts";
import { errorRedirect, issueAuthorizationCode } from "../services/oidc-provider/grants.ts";
import { endpoints } from "../services/oidc-provider/metadata.ts";
import { OAuthError } from "../services/oidc-provider/oauth-error.ts";
import { pageURL } from "./pages/respond.ts";
import { resolveSession } from "./session.ts";

// The authorize endpoint as a browser meets it: the request is checked (services/oidc-provider), then the
// browser goes to the sign-in page and back, to the consent page, or to the client with a code. A request
// whose client or redirect URI is unknown ends on authd's error page, never at the URI it named.

/** The browser's own signed-in session (its cookie: never a bearer token or an API key a page cannot hold). */
export async function browserSession(c: Context, ctx: AuthContext): Promise<BrowserSession | null> {
  const session = await resolveSession(c, ctx);
  if (session?.source !== "cookie" || session.session.impersonatedBy) return null;
  return { sessionId: session.session.id, userId: session.user.id, authTime: Number(session.session.createdAt) };
}

/** The request's own parameters only (what the sign-in page returns to and the consent page carries). */
export function requestParameters(params: AuthorizationParams): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REQUEST_PARAMETERS) {
    const value = params[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** The authorize endpoint's URL with `params`: where a browser goes to start (or restart) the request. */
export function authorizeURL(ctx: AuthContext, params: Record<string, string>): string {
  return `${endpoints(ctx).authorization_endpoint}?${new URLSearchParams(params)}`;
}

/** authd's error page for a request that cannot be answered to the client. */
export function unanswerableRequest(c: Context, ctx: AuthContext, error = "invalid_oauth_request"): Response {
  return c.redirect(pageURL(ctx, "/error", null, { error }), 302);
}

/**
 * The request checked, or the answer to one that cannot go on: authd's error page when its client or
 * redirect URI is unknown, else the client's redirect URI with the error (302, or 303 after a form post).
 */
export async function checkAuthorizationRequest(
  c: Context,
  ctx: AuthContext,
  raw: AuthorizationParams,
  status: 302 | 303 = 302,
): Promise<{ request: AuthorizationRequest } | { answer: Response }> {
  let parsed: Awaited<ReturnType<typeof parseAuthorizationRequest>>;
  try {
    parsed = await parseAuthorizationRequest(ctx, raw);
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) return { answer: unanswerableRequest(c, ctx) };
    throw error;
  }
  if (parsed.ok) return { request: parsed.request };
  const { error, error_description } = parsed.error.toBody();
  return { answer: c.redirect(errorRedirect(ctx, parsed.redirectURI, parsed.state, error, error_description), status) };
}

export async function answerAuthorize(c: Context, ctx: AuthContext, raw: AuthorizationParams): Promise<Response> {
  const checked = await checkAuthorizationRequest(c, ctx, raw);
  if ("answer" in checked) return checked.answer;
  const { request } = checked;
  const session = await browserSession(c, ctx);
  try {
    const decision = await decide(ctx, request, session);
    const params = requestParameters(raw);
    if (decision.next === "sign-in") {
      // A fresh sign-in (prompt=login, max_age) comes back with a signed marker of when it was asked for.
      const back = decision.fresh ? { ...params, authd_login: loginMarker(ctx) } : params;
      const query: Record<string, string> = decision.fresh ? { fresh: "1" } : {};
      if (request.loginHint) query.identifier = request.loginHint;
      return c.redirect(pageURL(ctx, "/sign-in", authorizeURL(ctx, back), query), 302);
    }
    if (decision.next === "consent") return c.redirect(pageURL(ctx, "/consent", null, params), 302);
    return c.redirect(await issueAuthorizationCode(ctx, request, session as BrowserSession), 302);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const { error: code, error_description } = error.toBody();
    return c.redirect(errorRedirect(ctx, request.redirectURI, request.state, code, error_description), 302);
  }
}
