import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { isAuthError } from "../../errors.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import { recordSignInFailure, type SignInAttempt } from "../sign-in/events.ts";
import type { SignInStep } from "../sign-in/gate.ts";
import { type SignInResult, signIn } from "../sign-in/pipeline.ts";
import type { SignInRequest } from "../sign-in/strategy.ts";
import { consumeState, type OAuthState } from "./authorization.ts";
import { exchangeAuthorizationCode } from "./http.ts";
import { redirectURIFor, resolveProvider } from "./providers.ts";
import { providerCallbackStrategy, resolveIdentity, socialFailureReason } from "./sign-in.ts";
import { linkSocialAccount, type SocialFailure } from "./social-users.ts";
import type { ProviderProfile, ResolvedProvider } from "./types.ts";

// Where the provider sends the browser back. Every failure is a redirect carrying one of the spec's
// codes: to the app's errorCallbackURL once the state is known, to the /error page before that. Each
// failed sign-in is recorded once, where it happened (a refused identity or a ban by the pipeline).

export interface CallbackParameters {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  user?: string;
}

/** Where to send the browser; with a sign-in that got through, its session or challenge (for the cookies). */
export interface CallbackAnswer {
  location: string;
  /** The state was checked against the browser and used up: its cookie has no further use. */
  stateTaken: boolean;
  signedIn?: SignInStep & { user: UserRow };
}

export function withParams(url: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join("&");
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

/**
 * Where a failure goes when no errorCallbackURL is known: the pages' error page while they are on (it explains
 * each code), else the API's plain one.
 */
export function defaultErrorPage(ctx: AuthContext): string {
  const pages = ctx.config.pages;
  return pages.enabled ? `${ctx.baseURL}${pages.basePath}/error` : `${ctx.apiURL}/error`;
}

class CallbackFailure {
  constructor(
    readonly code: string,
    readonly description?: string,
    /** Already in the security log (by the pipeline). */
    readonly recorded = false,
  ) {}
}

const fail = (code: string, description?: string, recorded = false): never => {
  throw new CallbackFailure(code, description, recorded);
};

async function readProfile(
  ctx: AuthContext,
  provider: ResolvedProvider,
  state: OAuthState,
  code: string,
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

async function providerOf(ctx: AuthContext, providerId: string): Promise<ResolvedProvider> {
  let provider: ResolvedProvider | null = null;
  try {
    provider = await resolveProvider(ctx, providerId);
  } catch (error) {
    ctx.logger.error("social callback: provider unavailable", { provider: providerId, error: String(error) });
    fail("invalid_code");
  }
  return provider ?? fail("oauth_provider_not_found");
}

/** The flow after the state checked out: where to send the browser, or a thrown CallbackFailure. */
async function completeCallback(
  ctx: AuthContext,
  providerId: string,
  state: OAuthState,
  input: CallbackParameters,
  request: SignInRequest,
): Promise<Omit<CallbackAnswer, "stateTaken">> {
  if (!input.code) return fail("no_code");
  const provider = await providerOf(ctx, providerId);
  const { tokens, profile } = await readProfile(ctx, provider, state, input.code, input.user);
  const callbackURL = state.callbackURL ?? fail("no_callback_url");
  if (state.link) {
    const { userId, email: userEmail } = state.link;
    const linked = await linkSocialAccount(ctx, { userId, userEmail, providerId: provider.id, profile, tokens });
    if (!linked.ok)
      fail(linked.error === "account_already_linked_to_different_user" ? linked.error : "unable_to_link_account");
    return { location: callbackURL };
  }
  if (!profile.email) return fail("email_not_found");
  const identity = { provider, profile: profile as ProviderProfile & { email: string }, tokens, callbackURL };
  const resolved = await resolveIdentity(ctx, { ...identity, requestSignUp: state.requestSignUp }, request);
  let result: SignInResult<SocialFailure>;
  try {
    result = await signIn(ctx, providerCallbackStrategy, { providerId: provider.id, resolved }, request);
  } catch (error) {
    if (isAuthError(error) && error.key === "BANNED_USER") fail("banned", error.message, true);
    ctx.logger.error("social callback: unable to create a session", { error });
    return fail("unable_to_create_session");
  }
  if (result.kind === "refused") return fail(result.refusal, undefined, true);
  const location = result.isNewUser ? (state.newUserCallbackURL ?? callbackURL) : callbackURL;
  return { location, signedIn: result };
}

/**
 * The state, if it checks out: presented by the browser that started the flow (unless the operator
 * switched that off), known and unexpired (consumed here, so it works once), and issued for the
 * provider whose callback this is. Null otherwise, before any call to the provider.
 */
async function takeState(ctx: AuthContext, providerId: string, presented: string): Promise<OAuthState | null> {
  const state = await consumeState(ctx, presented);
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

/** What the browser's return from the provider comes to, once the state is known. */
async function answerWithState(
  ctx: AuthContext,
  providerId: string,
  state: OAuthState,
  input: CallbackParameters,
  request: SignInRequest,
): Promise<CallbackAnswer> {
  try {
    return { ...(await completeCallback(ctx, providerId, state, input, request)), stateTaken: true };
  } catch (error) {
    // The browser is mid-redirect: even a database fault ends on a page, not on a JSON body.
    const failure = error instanceof CallbackFailure ? error : new CallbackFailure("internal_server_error");
    if (!(error instanceof CallbackFailure))
      ctx.logger.error("social callback failed", { provider: providerId, error });
    // Linking is no sign-in.
    if (!state.link && !failure.recorded) {
      const attempt: SignInAttempt = { method: "social", provider: providerId };
      await recordSignInFailure(ctx, attempt, callbackFailureReason(failure.code), request);
    }
    const params = { error: failure.code, error_description: failure.description };
    return { location: withParams(state.errorCallbackURL ?? defaultErrorPage(ctx), params), stateTaken: true };
  }
}

/**
 * Complete a provider's callback. `fromThisBrowser` says whether the state cookie this browser holds
 * matches the presented state (the front end reads it; not asked when the operator turned the check off).
 */
export async function completeSocialCallback(
  ctx: AuthContext,
  providerId: string,
  input: CallbackParameters,
  fromThisBrowser: (state: string) => boolean,
  request: SignInRequest,
): Promise<CallbackAnswer> {
  const errorPage = defaultErrorPage(ctx);
  const attempt: SignInAttempt = { method: "social", provider: providerId };
  if (input.error) {
    await recordSignInFailure(ctx, attempt, "provider_error", request);
    const params = { error: input.error, error_description: input.error_description };
    return { location: withParams(errorPage, params), stateTaken: false };
  }
  if (!input.state) return { location: withParams(errorPage, { error: "state_not_found" }), stateTaken: false };
  const checked = ctx.config.account.skipStateCookieCheck || fromThisBrowser(input.state);
  if (!checked) ctx.logger.warn("social callback: the state was not started by this browser", { provider: providerId });
  const state = checked ? await takeState(ctx, providerId, input.state) : null;
  if (!state) {
    await recordSignInFailure(ctx, attempt, "state_mismatch", request);
    return { location: withParams(errorPage, { error: "please_restart_the_process" }), stateTaken: checked };
  }
  return answerWithState(ctx, providerId, state, input, request);
}
