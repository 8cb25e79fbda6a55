import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { completeSocialCallback, defaultErrorPage, withParams } from "../../services/oauth/callback.ts";
import { freeText, singleLine } from "../fields.ts";
import { isStateFromThisBrowser, releaseStateCookie } from "../oauth-state-cookie.ts";
import { defineRoute } from "../route.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";

// Where the provider sends the browser back (the flow: src/services/sign-in/social-callback.ts). Every
// answer is a redirect: to the app with the session cookie, or with one of the spec's error codes.

const CallbackInput = z.object({
  code: singleLine().optional(),
  state: singleLine().optional(),
  error: singleLine().optional(),
  error_description: freeText().optional(),
  user: freeText().optional(),
});

async function handleCallback(c: Context, ctx: AuthContext, providerId: string, raw: unknown): Promise<Response> {
  const parsed = CallbackInput.safeParse(raw);
  if (!parsed.success) return c.redirect(withParams(defaultErrorPage(ctx), { error: "invalid_callback_request" }), 302);
  const request = signInRequestOf(c, ctx, undefined);
  const fromThisBrowser = (state: string) => isStateFromThisBrowser(c, ctx, state);
  const answer = await completeSocialCallback(ctx, providerId, parsed.data, fromThisBrowser, request);
  if (answer.stateTaken) releaseStateCookie(c, ctx);
  if (answer.signedIn) setSignInCookies(c, ctx, answer.signedIn, request);
  return c.redirect(answer.location, 302);
}

export const callbackGet = defineRoute({
  method: "GET",
  path: "/callback/:id",
  summary: "Return from a social provider",
  description: "Redirects to the callbackURL with a session cookie, or to the error URL with an error code.",
  tags: ["Social"],
  handler: ({ c, ctx, params, query }) => handleCallback(c, ctx, params.id, query),
});

/**
 * A form_post callback is a cross-site POST, which carries no SameSite=Lax cookie, so the browser's
 * state cookie cannot be checked here. It is sent on to the GET callback (303, a top-level GET that
 * does carry it) with the same parameters; the code stays single-use and bound to PKCE and the browser.
 */
function relayFormPost(c: Context, ctx: AuthContext, providerId: string, raw: unknown): Response {
  const parsed = CallbackInput.safeParse(raw);
  if (!parsed.success) return c.redirect(withParams(defaultErrorPage(ctx), { error: "invalid_callback_request" }), 302);
  return c.redirect(withParams(`${ctx.apiURL}/callback/${encodeURIComponent(providerId)}`, parsed.data), 303);
}

export const callbackPost = defineRoute({
  method: "POST",
  path: "/callback/:id",
  summary: "Return from a social provider (form_post)",
  description:
    "Providers answering with response_mode=form_post (Apple) post the code here; it is relayed to the GET callback (303), where the browser's state cookie is checked.",
  tags: ["Social"],
  acceptsForm: true,
  handler: ({ c, ctx, params, query, body }) => {
    const input = { ...(query as object), ...(body as object) };
    return ctx.config.account.skipStateCookieCheck
      ? handleCallback(c, ctx, params.id, input)
      : relayFormPost(c, ctx, params.id, input);
  },
});
