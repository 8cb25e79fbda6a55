import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isAccountPage, isConsolePage } from "../../../ui/web/bundles.ts";
import type { PageState } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { isAuthError } from "../../errors.ts";
import { authorizationFormTargets } from "../oidc-form-targets.ts";
import { socialFormTargets } from "./social-form-targets.ts";

/**
 * A refusal a page shows in words: a catalogue error below 500, as its code and status. Anything else (an
 * outage, a bug) is thrown on, for the app's error handler to answer.
 */
export function pageRefusal(error: unknown): { code: string; status: ContentfulStatusCode } {
  if (!isAuthError(error) || error.status >= 500) throw error;
  return { code: error.code, status: error.status as ContentfulStatusCode };
}

// Answering with a page, or sending the browser on after a form (303: the next GET is a plain page load).

// React's server renderer and the pages are loaded with the first page asked for, not at start: a daemon
// that serves only the API never holds them in memory.
let renderer: Promise<typeof import("../../../ui/web/server/render.tsx")> | undefined;
const loadRenderer = () => {
  renderer ??= import("../../../ui/web/server/render.tsx");
  return renderer;
};

export async function renderPage(
  c: Context,
  ctx: AuthContext,
  state: PageState,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const [assets, { renderDocument }] = await Promise.all([
    import("./assets.ts").then((module) => module.pageAssets(ctx)),
    loadRenderer(),
  ]);
  // The social buttons post to a route that sends the browser on to the provider: the CSP must allow it.
  const targets: string[] = [];
  if (
    (state.page === "sign-in" && state.methods.social.length > 0) ||
    (state.page === "account-linked-accounts" && state.linkable.length > 0)
  )
    targets.push(...(await socialFormTargets(ctx)));
  // A form whose flow returns to an OpenID client's authorization request ends at the client.
  targets.push(...(await authorizationFormTargets(ctx, state.redirect)));
  if (targets.length > 0) c.set("pageFormTargets", [...(c.get("pageFormTargets") ?? []), ...targets]);
  const document = isConsolePage(state)
    ? { script: assets.consoleScript, styles: assets.consoleStyles }
    : { script: isAccountPage(state) ? assets.accountScript : assets.script, styles: assets.styles };
  return c.html(renderDocument(state, document), status);
}

/** After a form: go to `location` with a GET (so a reload never posts the form again). */
export function seeOther(c: Context, location: string): Response {
  return c.redirect(location, 303);
}

/** A page's URL under the pages' base path, carrying the return address when there is one. */
export function pageURL(
  ctx: AuthContext,
  path: string,
  redirect: string | null,
  params: Record<string, string> = {},
): string {
  const query = new URLSearchParams(params);
  if (redirect) query.set("redirect", redirect);
  const search = query.toString();
  return `${ctx.config.pages.basePath}${path}${search ? `?${search}` : ""}`;
}
