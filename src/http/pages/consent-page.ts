import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { errorRedirect, issueAuthorizationCode, recordConsent } from "../../services/oidc-provider/grants.ts";
import { findUserById } from "../../services/users.ts";
import { authorizeURL, browserSession, checkAuthorizationRequest, requestParameters } from "../oidc-authorize.ts";
import { requestOrigin } from "../security-log.ts";
import { guardForm } from "./guard.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { renderPage, seeOther } from "./respond.ts";

// The OpenID Provider's consent page (issue 30): which application asks for what, for the signed-in user,
// with Allow and Deny. It carries the authorization request's own parameters and checks them again on
// the post, through the same service as the authorize endpoint; the post is guarded like every page form
// (Origin and the form token), so another site cannot consent in the user's name. Allowing remembers the
// scopes for this user and client; either answer goes back to the client (the CSP lets the form go there).

/** The origin (or private-use scheme) a consent form's answer is sent on to. */
function formTarget(redirectURI: string): string {
  const url = new URL(redirectURI);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}

export async function showConsent(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.oidcProvider.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const params = c.req.query();
  const checked = await checkAuthorizationRequest(c, ctx, params);
  if ("answer" in checked) return checked.answer;
  const session = await browserSession(c, ctx);
  const user = session ? await findUserById(ctx, session.userId) : undefined;
  // Signed out meanwhile: the authorize endpoint sends the browser through sign-in and back here.
  if (!user) return c.redirect(authorizeURL(ctx, requestParameters(params)), 302);
  const { request } = checked;
  c.set("pageFormTargets", [formTarget(request.redirectURI)]);
  return renderPage(c, ctx, {
    ...commonState(c, ctx),
    page: "consent",
    clientName: request.client.name,
    scopes: request.scopes,
    email: user.email,
    destination: formTarget(request.redirectURI),
    request: requestParameters(params),
  });
}

export async function postConsent(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.oidcProvider.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  const params = requestParameters(guarded.fields);
  const checked = await checkAuthorizationRequest(c, ctx, params, 303);
  if ("answer" in checked) return checked.answer;
  const { request } = checked;
  const session = await browserSession(c, ctx);
  if (!session) return seeOther(c, authorizeURL(ctx, params));
  if (guarded.fields.decision !== "allow")
    return seeOther(
      c,
      errorRedirect(ctx, request.redirectURI, request.state, "access_denied", "the user denied the request"),
    );
  await recordConsent(ctx, session.userId, request, requestOrigin(c, ctx));
  return seeOther(c, await issueAuthorizationCode(ctx, request, session));
}
