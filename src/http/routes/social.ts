import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError, type ErrorKey, isAuthError } from "../../errors.ts";
import { buildAuthorizationURL, createState, verifyClientIdToken } from "../../services/oauth/authorization.ts";
import { requireProvider } from "../../services/oauth/providers.ts";
import {
  linkSocialAccount,
  resolveSocialUser,
  type SocialFailure,
  type SocialUser,
} from "../../services/oauth/social-users.ts";
import type { OAuthTokens, ProviderProfile, ResolvedProvider } from "../../services/oauth/types.ts";
import type { SignInFailureReason } from "../../services/security-event-types.ts";
import { recordSecurityEvent } from "../../services/security-events.ts";
import { toPublicUserWire } from "../../services/users.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { bindStateToBrowser } from "../oauth-state-cookie.ts";
import { defineRoute } from "../route.ts";
import { recordSignInFailure, requestSource } from "../security-log.ts";
import { signInUser } from "../sign-in.ts";

// Starting social sign-in and linking: either an authorization URL for the browser, or (with an ID
// token the client already holds) a direct sign-in or link after verifying that token.

const IdTokenSchema = z.object({
  token: singleLine(),
  nonce: singleLine().optional(),
  accessToken: singleLine().optional(),
  refreshToken: singleLine().optional(),
  expiresAt: z.number().optional(),
  scopes: z.array(singleLine()).optional(),
});

const SignInSocialBody = z.object({
  provider: singleLine(),
  callbackURL: singleLine().optional(),
  newUserCallbackURL: singleLine().optional(),
  errorCallbackURL: singleLine().optional(),
  disableRedirect: z.boolean().optional(),
  idToken: IdTokenSchema.optional(),
  scopes: z.array(singleLine()).optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: singleLine().optional(),
});

const LinkSocialBody = SignInSocialBody.omit({ newUserCallbackURL: true, loginHint: true });

/** The profile behind an ID token the client sent, after verifying it; refusals are the spec's messages. */
async function profileFromClientIdToken(
  ctx: AuthContext,
  provider: ResolvedProvider,
  idToken: z.infer<typeof IdTokenSchema>,
): Promise<{ profile: ProviderProfile & { email: string }; tokens: OAuthTokens }> {
  if (!provider.definition.supportsIdToken || !provider.endpoints.jwksURI)
    throw new AuthError("ID_TOKEN_NOT_SUPPORTED");
  const claims = await verifyClientIdToken(ctx, provider, idToken.token, idToken.nonce);
  if (!claims) throw new AuthError("INVALID_ID_TOKEN");
  const tokens: OAuthTokens = {
    idToken: idToken.token,
    accessToken: idToken.accessToken,
    refreshToken: idToken.refreshToken,
    scopes: idToken.scopes ?? [],
  };
  const profile = await provider.definition
    .readProfile({ tokens, endpoints: provider.endpoints, config: provider.config })
    .catch(() => null);
  if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
  if (!profile.email) throw new AuthError("USER_EMAIL_NOT_FOUND");
  return { profile: { ...profile, email: profile.email }, tokens };
}

const SIGN_IN_FAILURES: Partial<Record<SocialFailure, ErrorKey>> = {
  account_not_linked: "ACCOUNT_NOT_LINKED",
  signup_disabled: "SIGNUP_DISABLED",
  unable_to_create_user: "UNABLE_TO_CREATE_USER",
  unable_to_link_account: "UNABLE_TO_LINK_ACCOUNT",
};

const LINK_FAILURES: Partial<Record<SocialFailure, ErrorKey>> = {
  unable_to_link_account: "LINKING_NOT_ALLOWED",
  email_mismatch: "LINKING_DIFFERENT_EMAILS",
};

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

/**
 * Start a session for the user a provider identity resolved to, logging what happened on the way: a new
 * user's sign-up, an email the provider verified (an unverified account taken over by its owner), the sign-in.
 */
export async function signInSocialUser(c: Context, ctx: AuthContext, providerId: string, resolved: SocialUser) {
  const { user } = resolved;
  const source = requestSource(c, ctx, "user", user.id);
  if (resolved.verifiedEmail)
    await recordSecurityEvent(ctx, {
      type: "email_verified",
      outcome: "success",
      method: "provider",
      provider: providerId,
      userId: user.id,
      source,
    });
  return signInUser(c, ctx, user, undefined, { method: "social", provider: providerId });
}

export function isSignUpDisabled(provider: ResolvedProvider, requestSignUp: boolean | undefined): boolean {
  return provider.config.disableSignUp || (provider.config.disableImplicitSignUp && !requestSignUp);
}

/** Store the state (bound to the provider) and hand the browser its cookie; returns the authorization URL. */
async function startAuthorization(
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

export const signInSocial = defineRoute({
  method: "POST",
  path: "/sign-in/social",
  startsSession: true,
  summary: "Sign in with a social provider",
  description: "Returns the provider's authorization URL, or with an idToken signs in directly after verifying it.",
  tags: ["Social"],
  body: SignInSocialBody,
  response: z.union([
    z.object({
      url: z.string().optional(),
      redirect: z.boolean(),
      token: z.string().optional(),
      user: PublicUserSchema.optional(),
    }),
    TwoFactorRedirectSchema,
  ]),
  errors: [
    "ACCOUNT_NOT_LINKED",
    "BANNED_USER",
    "CALLBACK_URL_REQUIRED",
    "FAILED_TO_CREATE_SESSION",
    "FAILED_TO_CREATE_USER",
    "FAILED_TO_GET_USER_INFO",
    "ID_TOKEN_NOT_SUPPORTED",
    "INVALID_ID_TOKEN",
    "PROVIDER_NOT_FOUND",
    "PROVIDER_UNAVAILABLE",
    "SIGNUP_DISABLED",
    "UNABLE_TO_CREATE_USER",
    "UNABLE_TO_CREATE_VERIFICATION",
    "UNABLE_TO_LINK_ACCOUNT",
    "USERNAME_IS_ALREADY_TAKEN",
    "USER_ALREADY_EXISTS",
    "USER_EMAIL_NOT_FOUND",
    "VALIDATION_ERROR",
  ],
  handler: async ({ c, ctx, body }) => {
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(c, ctx, provider, body);
      return { url, redirect: !body.disableRedirect };
    }
    const attempt = { method: "social", provider: provider.id } as const;
    const { profile, tokens } = await profileFromClientIdToken(ctx, provider, body.idToken).catch(
      async (error: unknown) => {
        if (isAuthError(error) && error.key === "INVALID_ID_TOKEN")
          await recordSignInFailure(c, ctx, attempt, "invalid_token");
        throw error;
      },
    );
    const result = await resolveSocialUser(ctx, {
      providerId: provider.id,
      profile,
      tokens,
      disableSignUp: isSignUpDisabled(provider, body.requestSignUp),
      source: requestSource(c, ctx),
      callbackURL: body.callbackURL,
    });
    if (!result.ok) {
      await recordSignInFailure(c, ctx, attempt, socialFailureReason(result.error));
      throw new AuthError(SIGN_IN_FAILURES[result.error] ?? "UNABLE_TO_LINK_ACCOUNT");
    }
    const signedIn = await signInSocialUser(c, ctx, provider.id, result.value);
    if (signedIn.kind === "two-factor") return { twoFactorRedirect: true as const };
    return {
      redirect: false,
      token: signedIn.session.token,
      url: undefined,
      user: toPublicUserWire(result.value.user),
    };
  },
});

export const linkSocial = defineRoute({
  method: "POST",
  path: "/link-social",
  summary: "Link a social account to the signed-in user",
  tags: ["Social"],
  auth: "session",
  body: LinkSocialBody,
  response: z.object({ url: z.string(), redirect: z.boolean(), status: z.boolean().optional() }),
  errors: [
    "CALLBACK_URL_REQUIRED",
    "FAILED_TO_GET_USER_INFO",
    "ID_TOKEN_NOT_SUPPORTED",
    "INVALID_ID_TOKEN",
    "LINKING_DIFFERENT_EMAILS",
    "LINKING_FAILED",
    "LINKING_NOT_ALLOWED",
    "PROVIDER_NOT_FOUND",
    "PROVIDER_UNAVAILABLE",
    "UNABLE_TO_CREATE_VERIFICATION",
    "USER_EMAIL_NOT_FOUND",
  ],
  handler: async ({ c, ctx, body, session }) => {
    const user = session.user;
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(c, ctx, provider, body, { userId: user.id, email: user.email });
      return { url, redirect: !body.disableRedirect };
    }
    const { profile, tokens } = await profileFromClientIdToken(ctx, provider, body.idToken);
    const result = await linkSocialAccount(ctx, {
      userId: user.id,
      userEmail: user.email,
      providerId: provider.id,
      profile,
      tokens,
    });
    if (!result.ok) throw new AuthError(LINK_FAILURES[result.error] ?? "LINKING_FAILED");
    return { redirect: false, url: "", status: true };
  },
});
