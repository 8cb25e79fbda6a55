import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { verifyClientIdToken } from "./authorization.ts";
import type { OAuthTokens, ProviderProfile, ResolvedProvider } from "./types.ts";

// An ID token a client already holds (sign-in/social and link-social with idToken): verified against the
// provider's keys before its profile is believed.

export interface ClientIdToken {
  token: string;
  nonce?: string;
  accessToken?: string;
  refreshToken?: string;
  expiresAt?: number;
  scopes?: string[];
}

/** The profile behind an ID token the client sent, after verifying it; refusals are the spec's messages. */
export async function profileFromClientIdToken(
  ctx: AuthContext,
  provider: ResolvedProvider,
  idToken: ClientIdToken,
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
