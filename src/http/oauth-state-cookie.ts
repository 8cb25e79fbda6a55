import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { constantTimeEqual, sha256Base64Url } from "../crypto/random.ts";
import { AuthError } from "../errors.ts";
import { buildAuthorizationURL, createState, STATE_LIFETIME_MS } from "../services/oauth/authorization.ts";
import type { ResolvedProvider } from "../services/oauth/types.ts";
import { authCookieName, clearCookie, readSignedCookie, setSignedCookie } from "./cookies.ts";

// Binding a social sign-in to the browser that started it. The state alone is a bearer value: a
// callback URL carrying someone else's code and state, opened in another browser, would sign that
// browser in as them (login CSRF) or link their provider account to a victim's user. So the browser
// that asks for the authorization URL also gets a signed, HttpOnly cookie holding a hash of the state
// (the state itself never sits in a cookie), and the callback must present both.
//
// The cookie is SameSite=Lax like every authd cookie: a provider's redirect back is a top-level GET,
// which carries it. A form_post callback (Apple) is a cross-site POST, which does not; that callback
// answers with a redirect to the GET callback, where the cookie is checked (see social-callback.ts).

const stateCookieName = (ctx: AuthContext) => authCookieName(ctx, "oauth_state");

/** Give the browser starting a flow the hash of its state, for as long as the state lives. */
export function bindStateToBrowser(c: Context, ctx: AuthContext, state: string): void {
  setSignedCookie(c, ctx, stateCookieName(ctx), sha256Base64Url(state), Math.floor(STATE_LIFETIME_MS / 1000));
}

/** Whether this browser started the flow `state` belongs to (compared in constant time: the hash stands for a secret). */
export function isStateFromThisBrowser(c: Context, ctx: AuthContext, state: string): boolean {
  const held = readSignedCookie(c, ctx, stateCookieName(ctx));
  return held !== null && constantTimeEqual(held, sha256Base64Url(state));
}

/** The flow is over (its state is used up): the cookie has no further use. */
export function releaseStateCookie(c: Context, ctx: AuthContext): void {
  clearCookie(c, ctx, stateCookieName(ctx));
}

/**
 * Start a social flow (POST /sign-in/social, /link-social and the sign-in page's buttons): store the state
 * (bound to the provider) and hand the browser its cookie; returns the authorization URL.
 */
export async function startAuthorization(
  c: Context,
  ctx: AuthContext,
  provider: ResolvedProvider,
  body: {
    callbackURL?: string;
    errorCallbackURL?: string;
    newUserCallbackURL?: string;
    requestSignUp?: boolean;
    scopes?: string[];
    loginHint?: string;
  },
  link?: { userId: string; email: string },
): Promise<string> {
  if (!body.callbackURL) throw new AuthError("CALLBACK_URL_REQUIRED");
  const { state, codeVerifier } = await createState(ctx, {
    providerId: provider.id,
    callbackURL: body.callbackURL,
    errorCallbackURL: body.errorCallbackURL,
    newUserCallbackURL: body.newUserCallbackURL,
    requestSignUp: body.requestSignUp,
    link,
  });
  bindStateToBrowser(c, ctx, state);
  return buildAuthorizationURL(ctx, provider, { state, codeVerifier, scopes: body.scopes, loginHint: body.loginHint });
}
