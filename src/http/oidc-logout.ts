import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { redirectWith } from "../services/oidc-provider/authorization.ts";
import { checkLogoutRequest, logOutAtClientRequest } from "../services/oidc-provider/logout.ts";
import { clearSessionCookies } from "./cookies.ts";
import { unanswerableRequest } from "./oidc-authorize.ts";
import { pageURL } from "./pages/respond.ts";
import { requestOrigin } from "./security-log.ts";
import { readPresentedSessionTokens, resolveSession } from "./session.ts";

// The end-session endpoint as a browser meets it. The browser's session ends only when the client proves
// it speaks for that user (an id_token_hint of theirs): without one, any page could sign visitors out, so
// the browser is shown its account page, where signing out is one button. Afterwards it goes to the
// client's registered post_logout_redirect_uri (with state), or to the signed-out page.

export async function answerEndSession(c: Context, ctx: AuthContext, params: Record<string, string>) {
  const check = await checkLogoutRequest(ctx, {
    idTokenHint: params.id_token_hint || null,
    clientId: params.client_id || null,
    postLogoutRedirectURI: params.post_logout_redirect_uri || null,
  });
  if (!check.ok) return unanswerableRequest(c, ctx, "invalid_logout_request");
  const after = check.redirectURI
    ? redirectWith(check.redirectURI, { state: params.state || null })
    : pageURL(ctx, "/signed-out", null);
  const session = await resolveSession(c, ctx, { disableRefresh: true });
  if (session?.source !== "cookie") return c.redirect(after, 302);
  if (check.hintedUserId !== session.user.id) return c.redirect(pageURL(ctx, "", null), 302);
  const sessionTokens = readPresentedSessionTokens(c, ctx);
  clearSessionCookies(c, ctx);
  await logOutAtClientRequest(ctx, {
    sessionTokens,
    session: { sessionId: session.session.id, userId: session.user.id },
    clientId: check.client?.id ?? null,
    origin: requestOrigin(c, ctx),
  });
  return c.redirect(after, 302);
}
