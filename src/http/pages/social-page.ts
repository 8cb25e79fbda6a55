import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthContext } from "../../context.ts";
import { isAuthError } from "../../errors.ts";
import { defaultErrorPage } from "../../services/oauth/callback.ts";
import { requireProvider } from "../../services/oauth/providers.ts";
import { startAuthorization } from "../oauth-state-cookie.ts";
import { guardForm } from "./guard.ts";
import { signedInTarget } from "./magic-link-pages.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { renderPage, seeOther } from "./respond.ts";
import { signInPage } from "./sign-in-pages.ts";

// A social provider's button on the sign-in page: the same start as POST /sign-in/social (the state stored
// and bound to this browser), answered with 303 to the provider's authorization URL, so no script is
// needed. The provider sends the browser back to the API's callback, which ends at the return address, or
// at the pages' error page with the failure's code.

export async function postSocial(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, signInPage(c, ctx, "", { code: guarded.problem }), 403);
  const { fields } = guarded;
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  try {
    const provider = await requireProvider(ctx, fields.provider ?? "");
    const url = await startAuthorization(c, ctx, provider, {
      callbackURL: signedInTarget(ctx, redirect),
      errorCallbackURL: defaultErrorPage(ctx),
    });
    return seeOther(c, url);
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return linkFailure(c, ctx, error.code, error.status as ContentfulStatusCode);
  }
}
