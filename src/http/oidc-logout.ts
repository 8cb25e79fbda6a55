import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { redirectWith } from "../services/oidc-provider/authorization.ts";
import { checkLogoutRequest, endSessionFamilies } from "../services/oidc-provider/logout.ts";
import { revokeSession, signOutEvent } from "../services/sessions/sessions.ts";
import { clearSessionCookies } from "./cookies.ts";
import { unanswerableRequest } from "./oidc-authorize.ts";
import { pageURL } from "./pages/respond.ts";
import { requestOrigin, requestSource } from "./security-log.ts";
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
  const tokens = readPresentedSessionTokens(c, ctx);
  clearSessionCookies(c, ctx);
  for (const token of tokens) await revokeSession(ctx, token, signOutEvent(requestSource(c, ctx)));
  const ended = { sessionId: session.session.id, userId: session.user.id };
  await endSessionFamilies(ctx, ended, check.client?.id ?? null, requestOrigin(c, ctx));
  return c.redirect(after, 302);
}
