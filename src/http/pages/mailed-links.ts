import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthContext } from "../../context.ts";
import { isTrustedURL } from "../request.ts";
import { commonState } from "./page-state.ts";
import { pageURL, renderPage, seeOther } from "./respond.ts";
import { trustedReturnAddress } from "./return-address.ts";

// Mailed links whose GET would consume a token (verify email, email change, delete account) keep the shapes
// the spec fixes, and API clients keep the spec's answers. A browser opening one (its Accept names
// text/html) is sent to a page instead, which consumes nothing and shows a button that posts the token: a
// mail scanner that fetches the link changes nothing, and the person's press does the work.

/**
 * A browser's page load, with the pages on: API clients and the conformance kit send JSON or *\/*. A HEAD
 * (Hono answers it with the GET route, body dropped) is only ever a look at the link: it consumes nothing either.
 */
export function wantsPage(c: Context, ctx: AuthContext): boolean {
  if (!ctx.config.pages.enabled) return false;
  return c.req.method === "HEAD" || (c.req.header("accept") ?? "").includes("text/html");
}

/**
 * For a browser, the 303 to the link's page (`page` under the pages' path), carrying the token and the
 * callbackURL: as the page's return address when it is one, else as it came (the API route has checked it
 * already), so the flow ends where the API's would. Null for any other caller: the route does the work.
 */
export function browserLanding(
  c: Context,
  ctx: AuthContext,
  page: string,
  token: string,
  callbackURL: string | undefined,
  /** Further targets the link carries (a magic link's newUserCallbackURL and errorCallbackURL), passed on. */
  more: Record<string, string | undefined> = {},
): Response | null {
  if (!wantsPage(c, ctx)) return null;
  const redirect = trustedReturnAddress(ctx, callbackURL);
  const params: Record<string, string> = { token };
  for (const [name, value] of Object.entries(more)) if (value) params[name] = value;
  if (!redirect && callbackURL) params.callbackURL = callbackURL;
  return seeOther(c, pageURL(ctx, page, redirect, params));
}

/** Where the link's flow ends: the page's return address, else a callbackURL the API would follow, else none. */
export function linkReturnAddress(ctx: AuthContext, redirect: string | null, callbackURL: string | undefined) {
  if (redirect) return redirect;
  return callbackURL && isTrustedURL(ctx, callbackURL) ? callbackURL : null;
}

/** The link's token and raw callbackURL as a landing page carries them (query on GET, fields on POST). */
export function linkFields(values: Record<string, string | undefined>) {
  return { token: values.token ?? "", callbackURL: values.callbackURL || undefined };
}

/** A link's failure as the error page, showing its code. */
export function linkFailure(
  c: Context,
  ctx: AuthContext,
  code: string,
  status: ContentfulStatusCode = 400,
): Promise<Response> {
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code }, status);
}
