import type { AuthContext } from "../../context.ts";
import { type ErrorKey, isAuthError } from "../../errors.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { CredentialCheck, SignInStrategy } from "../sign-in/strategy.ts";
import { type ClientIdToken, profileFromClientIdToken } from "./client-id-token.ts";
import { resolveSocialUser, type SocialFailure, type SocialResult, type SocialUser } from "./social-users.ts";
import type { OAuthTokens, ProviderProfile, ResolvedProvider } from "./types.ts";

// Signing in with a provider identity: from an ID token the client holds (sign-in/social), or from the
// profile a provider's callback returned. The identity resolves to a linked, newly linked or new user.

/** A refused social sign-in as the security log names it. */
export function socialFailureReason(failure: SocialFailure | string): SignInFailureReason {
  const named: SignInFailureReason[] = [
    "account_not_linked",
    "signup_disabled",
    "unable_to_create_user",
    "unable_to_link_account",
  ];
  return named.find((reason) => reason === failure) ?? "failed";
}

export function isSignUpDisabled(provider: ResolvedProvider, requestSignUp: boolean | undefined): boolean {
  return provider.config.disableSignUp || (provider.config.disableImplicitSignUp && !requestSignUp);
}

/** An email the provider verified (an unverified account taken over by its owner) is recorded before the gate. */
async function recordProviderVerified(
  ctx: AuthContext,
  providerId: string,
  resolved: SocialUser,
  origin: RequestOrigin,
) {
  const source = sourceOf(origin, "user", resolved.user.id);
  if (resolved.verifiedEmail)
    await recordSecurityEvent(ctx, {
      type: "email_verified",
      outcome: "success",
      method: "provider",
      provider: providerId,
      userId: resolved.user.id,
      source,
    });
}

export interface ProviderIdentity {
  provider: ResolvedProvider;
  /** The profile, with an email (callers refuse profiles without one first). */
  profile: ProviderProfile & { email: string };
  tokens: OAuthTokens;
  requestSignUp?: boolean;
  callbackURL?: string;
}

/** The user a provider identity resolves to (linked, newly linked or new), or why not. */
export function resolveIdentity(
  ctx: AuthContext,
  identity: ProviderIdentity,
  origin: RequestOrigin,
): Promise<SocialResult<SocialUser>> {
  const { provider } = identity;
  return resolveSocialUser(ctx, {
    providerId: provider.id,
    profile: identity.profile,
    tokens: identity.tokens,
    disableSignUp: isSignUpDisabled(provider, identity.requestSignUp),
    source: sourceOf(origin),
    callbackURL: identity.callbackURL,
  });
}

/** A resolved identity as a checked credential; a refusal is the resolution's failure, mapped by `refusalOf`. */
async function checkResolved<Refusal>(
  ctx: AuthContext,
  providerId: string,
  result: SocialResult<SocialUser>,
  origin: RequestOrigin,
  refusalOf: (failure: SocialFailure) => Refusal,
): Promise<CredentialCheck<Refusal>> {
  if (!result.ok) return { ok: false, refusal: refusalOf(result.error), reason: socialFailureReason(result.error) };
  await recordProviderVerified(ctx, providerId, result.value, origin);
  return { ok: true, user: result.value.user, isNewUser: result.value.isNewUser };
}

/**
 * The identity a provider's callback returned, resolved by the callback first (a fault there is the
 * callback's, not a failed session); a refusal is the callback's ?error= code.
 */
export const providerCallbackStrategy: SignInStrategy<
  { providerId: string; resolved: SocialResult<SocialUser> },
  SocialFailure
> = {
  attempt: (input) => ({ method: "social", provider: input.providerId }),
  checkCredential: (ctx, input, request) =>
    checkResolved(ctx, input.providerId, input.resolved, request, (failure) => failure),
};

const SIGN_IN_FAILURES: Partial<Record<SocialFailure, ErrorKey>> = {
  account_not_linked: "ACCOUNT_NOT_LINKED",
  signup_disabled: "SIGNUP_DISABLED",
  unable_to_create_user: "UNABLE_TO_CREATE_USER",
  unable_to_link_account: "UNABLE_TO_LINK_ACCOUNT",
};

export interface IdTokenSignIn {
  provider: ResolvedProvider;
  idToken: ClientIdToken;
  requestSignUp?: boolean;
  callbackURL?: string;
}

/** An ID token the client holds, verified first; a forged or foreign token is logged as invalid_token. */
export const idTokenStrategy: SignInStrategy<IdTokenSignIn, ErrorKey> = {
  attempt: (input) => ({ method: "social", provider: input.provider.id }),
  checkCredential: async (ctx, input, request) => {
    const { profile, tokens } = await profileFromClientIdToken(ctx, input.provider, input.idToken);
    const resolved = await resolveIdentity(ctx, { ...input, profile, tokens }, request);
    const refusalOf = (failure: SocialFailure) => SIGN_IN_FAILURES[failure] ?? "UNABLE_TO_LINK_ACCOUNT";
    return checkResolved(ctx, input.provider.id, resolved, request, refusalOf);
  },
  failureReason: (error) => (isAuthError(error) && error.key === "INVALID_ID_TOKEN" ? "invalid_token" : undefined),
};
