import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { type ErrorKey, isAuthError } from "../../errors.ts";
import { consumeState, type OAuthState } from "../../services/oauth/authorization.ts";
import { exchangeAuthorizationCode } from "../../services/oauth/http.ts";
import { redirectURIFor, resolveProvider } from "../../services/oauth/providers.ts";
import { linkSocialAccount, resolveSocialUser } from "../../services/oauth/social-users.ts";
import type { ProviderProfile, ResolvedProvider } from "../../services/oauth/types.ts";
import type { SignInFailureReason } from "../../services/security-event-types.ts";
import { freeText, singleLine } from "../fields.ts";
import { isStateFromThisBrowser, releaseStateCookie } from "../oauth-state-cookie.ts";
import { defineRoute } from "../route.ts";
import { recordSignInFailure, requestSource } from "../security-log.ts";
import { isSignUpDisabled, signInSocialUser, socialFailureReason } from "./social.ts";

// Where the provider sends the browser back. Every failure is a redirect carrying one of the spec's
// codes: to the app's errorCallbackURL once the state is known, to the /error page before that.

const CallbackInput = z.object({
  code: singleLine().optional(),
  state: singleLine().optional(),
  error: singleLine().optional(),
  error_description: freeText().optional(),
  user: freeText().optional(),
});

function withParams(url: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join("&");
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

class CallbackFailure {
  constructor(
    readonly code: string,
    readonly description?: string,
  ) {}
}

const fail = (code: string, description?: string): never => {
  throw new CallbackFailure(code, description);
};

async function readProfile(
  provider: ResolvedProvider,
  state: OAuthState,
  code: string,
  ctx: AuthContext,
  formUser: string | undefined,
) {
  const tokens = await exchangeAuthorizationCode(provider.endpoints, provider.config, {
    code,
    codeVerifier: state.codeVerifier,
    redirectURI: redirectURIFor(ctx, provider),
    now: ctx.now(),
  }).catch((error) => {
    ctx.logger.warn("social callback: code exchange failed", { provider: provider.id, error: String(error) });
    return fail("invalid_code");
  });
  const profile = await provider.definition
    .readProfile({ tokens, endpoints: provider.endpoints, config: provider.config, formUser })
    .catch((error) => {
      ctx.logger.warn("social callback: user info failed", { provider: provider.id, error: String(error) });
      return null;
    });
  if (!profile) return fail("unable_to_get_user_info");
  return { tokens, profile };
}

/** The flow after the state checked out; returns where to send the browser, or throws a CallbackFailure. */
async function completeCallback(
  c: Context,
  ctx: AuthContext,
  providerId: string,
  state: OAuthState,
  input: z.infer<typeof CallbackInput>,
): Promise<string> {
  if (!input.code) return fail("no_code");
  let provider: ResolvedProvider | null = null;
  try {
    provider = await resolveProvider(ctx, providerId);
  } catch (error) {
    ctx.logger.error("social callback: provider unavailable", { provider: providerId, error: String(error) });
    fail("invalid_code");
  }
  if (!provider) return fail("oauth_provider_not_found");
  const { tokens, profile } = await readProfile(provider, state, input.code, ctx, input.user);
  if (!state.callbackURL) return fail("no_callback_url");

  if (state.link) {
    const linked = await linkSocialAccount(ctx, {
      userId: state.link.userId,
      userEmail: state.link.email,
      providerId: provider.id,
      profile,
      tokens,
    });
    if (!linked.ok)
      fail(linked.error === "account_already_linked_to_different_user" ? linked.error : "unable_to_link_account");
    return state.callbackURL;
  }

  if (!profile.email) return fail("email_not_found");
  const result = await resolveSocialUser(ctx, {
    providerId: provider.id,
    profile: profile as ProviderProfile & { email: string },
    tokens,
    disableSignUp: isSignUpDisabled(provider, state.requestSignUp),
    source: requestSource(c, ctx),
    callbackURL: state.callbackURL,
  });
  if (!result.ok) return fail(result.error);
  try {
    await signInSocialUser(c, ctx, provider.id, result.value);
  } catch (error) {
    if (isAuthError(error) && error.key === "BANNED_USER") fail("banned", error.message);
    ctx.logger.error("social callback: unable to create a session", { error });
    fail("unable_to_create_session");
  }
  return result.value.isNewUser ? (state.newUserCallbackURL ?? state.callbackURL) : state.callbackURL;
}

/**
 * The state, if it checks out: presented by the browser that started the flow (unless the operator
 * switched that off), known and unexpired (consumed here, so it works once), and issued for the
 * provider whose callback this is. Null otherwise, before any call to the provider.
 */
async function takeState(
  c: Context,
  ctx: AuthContext,
  providerId: string,
  presented: string,
): Promise<OAuthState | null> {
  if (!ctx.config.account.skipStateCookieCheck && !isStateFromThisBrowser(c, ctx, presented)) {
    ctx.logger.warn("social callback: the state was not started by this browser", { provider: providerId });
    return null;
  }
  const state = await consumeState(ctx, presented);
  releaseStateCookie(c, ctx);
  if (state && state.providerId !== providerId) {
    // A code obtained for one provider must never be exchanged with another (mix-up attack).
    ctx.logger.warn("social callback: state issued for another provider", {
      provider: providerId,
      issuedFor: state.providerId,
    });
    return null;
  }
  return state;
}

/** The security log's reason for a callback failure code (the codes a provider or the state can cause). */
function callbackFailureReason(code: string): SignInFailureReason {
  const named: Record<string, SignInFailureReason> = {
    invalid_code: "invalid_code",
    unable_to_get_user_info: "unable_to_get_user_info",
    email_not_found: "email_not_found",
    unable_to_create_session: "unable_to_create_session",
  };
  return named[code] ?? socialFailureReason(code);
}

async function handleCallback(c: Context, ctx: AuthContext, providerId: string, raw: unknown): Promise<Response> {
  const errorPage = `${ctx.apiURL}/error`;
  const attempt = { method: "social", provider: providerId } as const;
  const parsed = CallbackInput.safeParse(raw);
  if (!parsed.success) return c.redirect(withParams(errorPage, { error: "invalid_callback_request" }), 302);
  const input = parsed.data;
  if (input.error) {
    await recordSignInFailure(c, ctx, attempt, "provider_error");
    return c.redirect(withParams(errorPage, { error: input.error, error_description: input.error_description }), 302);
  }
  if (!input.state) return c.redirect(withParams(errorPage, { error: "state_not_found" }), 302);
  const state = await takeState(c, ctx, providerId, input.state);
  if (!state) {
    await recordSignInFailure(c, ctx, attempt, "state_mismatch");
    return c.redirect(withParams(errorPage, { error: "please_restart_the_process" }), 302);
  }
  try {
    return c.redirect(await completeCallback(c, ctx, providerId, state, input), 302);
  } catch (error) {
    // The browser is mid-redirect: even a database fault ends on a page, not on a JSON body.
    const failure = error instanceof CallbackFailure ? error : new CallbackFailure("internal_server_error");
    if (!(error instanceof CallbackFailure))
      ctx.logger.error("social callback failed", { provider: providerId, error });
    // A banned user's refusal is logged where the session was refused; linking is no sign-in.
    if (!state.link && failure.code !== "banned")
      await recordSignInFailure(c, ctx, attempt, callbackFailureReason(failure.code));
    return c.redirect(
      withParams(state.errorCallbackURL ?? errorPage, { error: failure.code, error_description: failure.description }),
      302,
    );
  }
}

/** What completing a sign-in from a provider can refuse with (both callbacks end in handleCallback). */
const CALLBACK_ERRORS: ErrorKey[] = [
  "BANNED_USER",
  "FAILED_TO_CREATE_SESSION",
  "FAILED_TO_CREATE_USER",
  "USERNAME_IS_ALREADY_TAKEN",
  "USER_ALREADY_EXISTS",
  "VALIDATION_ERROR",
];

export const callbackGet = defineRoute({
  method: "GET",
  path: "/callback/:id",
  summary: "Return from a social provider",
  description: "Redirects to the callbackURL with a session cookie, or to the error URL with an error code.",
  tags: ["Social"],
  errors: CALLBACK_ERRORS,
  handler: ({ c, ctx, params, query }) => handleCallback(c, ctx, params.id, query),
});

/**
 * A form_post callback is a cross-site POST, which carries no SameSite=Lax cookie, so the browser's
 * state cookie cannot be checked here. It is sent on to the GET callback (303, a top-level GET that
 * does carry it) with the same parameters; the code stays single-use and bound to PKCE and the browser.
 */
function relayFormPost(c: Context, ctx: AuthContext, providerId: string, raw: unknown): Response {
  const parsed = CallbackInput.safeParse(raw);
  if (!parsed.success) return c.redirect(withParams(`${ctx.apiURL}/error`, { error: "invalid_callback_request" }), 302);
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
  errors: CALLBACK_ERRORS,
  handler: ({ c, ctx, params, query, body }) => {
    const input = { ...(query as object), ...(body as object) };
    return ctx.config.account.skipStateCookieCheck
      ? handleCallback(c, ctx, params.id, input)
      : relayFormPost(c, ctx, params.id, input);
  },
});
