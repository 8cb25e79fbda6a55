import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { type ErrorKey, AuthError } from "../../errors.ts";
import { buildAuthorizationURL, createState, verifyClientIdToken } from "../../services/oauth/authorization.ts";
import { requireProvider } from "../../services/oauth/providers.ts";
import { linkSocialAccount, resolveSocialUser, type SocialFailure } from "../../services/oauth/social-users.ts";
import type { OAuthTokens, ProviderProfile, ResolvedProvider } from "../../services/oauth/types.ts";
import { toUserWire } from "../../services/users.ts";
import { defineRoute } from "../route.ts";
import { signInUser } from "./sign-in.ts";

// Starting social sign-in and linking: either an authorization URL for the browser, or (with an ID
// token the client already holds) a direct sign-in or link after verifying that token.

const IdTokenSchema = z.object({
  token: z.string(),
  nonce: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
  scopes: z.array(z.string()).optional(),
});

const SignInSocialBody = z.object({
  provider: z.string(),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  disableRedirect: z.boolean().optional(),
  idToken: IdTokenSchema.optional(),
  scopes: z.array(z.string()).optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: z.string().optional(),
});

const LinkSocialBody = SignInSocialBody.omit({ newUserCallbackURL: true, loginHint: true });

/** The profile behind an ID token the client sent, after verifying it; refusals are the spec's messages. */
async function profileFromClientIdToken(provider: ResolvedProvider, idToken: z.infer<typeof IdTokenSchema>): Promise<{ profile: ProviderProfile & { email: string }; tokens: OAuthTokens }> {
  if (!provider.definition.supportsIdToken || !provider.endpoints.jwksURI) throw new AuthError("ID_TOKEN_NOT_SUPPORTED", { status: 404 });
  const claims = await verifyClientIdToken(provider, idToken.token, idToken.nonce);
  if (!claims) throw new AuthError("INVALID_TOKEN", { status: 401 });
  const tokens: OAuthTokens = { idToken: idToken.token, accessToken: idToken.accessToken, refreshToken: idToken.refreshToken, scopes: idToken.scopes ?? [] };
  const profile = await provider.definition.readProfile({ tokens, endpoints: provider.endpoints, config: provider.config }).catch(() => null);
  if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
  if (!profile.email) throw new AuthError("USER_EMAIL_NOT_FOUND", { status: 401 });
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

export function isSignUpDisabled(provider: ResolvedProvider, requestSignUp: boolean | undefined): boolean {
  return provider.config.disableSignUp || (provider.config.disableImplicitSignUp && !requestSignUp);
}

async function startAuthorization(
  ctx: AuthContext,
  provider: ResolvedProvider,
  body: { callbackURL?: string; errorCallbackURL?: string; newUserCallbackURL?: string; requestSignUp?: boolean; scopes?: string[]; loginHint?: string },
  link?: { userId: string; email: string },
): Promise<string> {
  if (!body.callbackURL) throw new AuthError("CALLBACK_URL_REQUIRED");
  const { state, codeVerifier } = await createState(ctx, {
    callbackURL: body.callbackURL,
    errorCallbackURL: body.errorCallbackURL,
    newUserCallbackURL: body.newUserCallbackURL,
    requestSignUp: body.requestSignUp,
    link,
  });
  return buildAuthorizationURL(ctx, provider, { state, codeVerifier, scopes: body.scopes, loginHint: body.loginHint });
}

export const signInSocial = defineRoute({
  method: "POST",
  path: "/sign-in/social",
  summary: "Sign in with a social provider",
  description: "Returns the provider's authorization URL, or with an idToken signs in directly after verifying it.",
  tags: ["Social"],
  body: SignInSocialBody,
  response: z.object({ url: z.string().optional(), redirect: z.boolean(), token: z.string().optional(), user: z.record(z.string(), z.unknown()).optional() }),
  handler: async ({ c, ctx, body }) => {
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(ctx, provider, body);
      return { url, redirect: !body.disableRedirect };
    }
    const { profile, tokens } = await profileFromClientIdToken(provider, body.idToken);
    const result = await resolveSocialUser(ctx, { providerId: provider.id, profile, tokens, disableSignUp: isSignUpDisabled(provider, body.requestSignUp), callbackURL: body.callbackURL });
    if (!result.ok) throw new AuthError(SIGN_IN_FAILURES[result.error] ?? "UNABLE_TO_LINK_ACCOUNT");
    const session = await signInUser(c, ctx, result.value.user, undefined);
    const user = toUserWire(ctx, result.value.user);
    return {
      redirect: false,
      token: session.token,
      url: undefined,
      user: { id: user.id, email: user.email, name: user.name, image: user.image, emailVerified: user.emailVerified, createdAt: user.createdAt, updatedAt: user.updatedAt },
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
  handler: async ({ ctx, body, session }) => {
    const user = session!.user;
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(ctx, provider, body, { userId: user.id, email: user.email });
      return { url, redirect: !body.disableRedirect };
    }
    const { profile, tokens } = await profileFromClientIdToken(provider, body.idToken);
    const result = await linkSocialAccount(ctx, { userId: user.id, userEmail: user.email, providerId: provider.id, profile, tokens });
    if (!result.ok) throw new AuthError(LINK_FAILURES[result.error] ?? "LINKING_FAILED");
    return { redirect: false, url: "", status: true };
  },
});
