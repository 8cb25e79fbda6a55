import type { SocialProviderConfig } from "../../config/schema.ts";

// The shapes shared by the OAuth modules: a provider's endpoints, the tokens it hands out, and the
// profile authd reads from it.

export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
  jwksURI?: string;
  emailsEndpoint?: string;
  /** Expected `iss` of ID tokens; one of several for providers with more than one spelling. */
  issuer?: string | string[];
}

export interface OAuthTokens {
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  tokenType?: string;
  /** Epoch milliseconds. */
  accessTokenExpiresAt?: number;
  refreshTokenExpiresAt?: number;
  scopes: string[];
}

/** What a provider says about its user, normalised. Null email: the provider did not release one. */
export interface ProviderProfile {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
  raw: Record<string, unknown>;
}

export interface ProfileInput {
  tokens: OAuthTokens;
  endpoints: ProviderEndpoints;
  config: SocialProviderConfig;
  /** Apple posts the user's name once, on the first sign-in, as a JSON form field. */
  formUser?: string;
}

/** How one kind of provider behaves; the built-in table and the generic OpenID Connect entry are these. */
export interface ProviderDefinition {
  name: string;
  /** Endpoints of the public service; config and discovery override them. */
  endpoints?: Partial<ProviderEndpoints>;
  /** Endpoints derived from a configured issuer without discovery (self-hosted GitLab). */
  endpointsFromIssuer?: (issuer: string) => Partial<ProviderEndpoints>;
  defaultScopes: string[];
  responseMode?: "query" | "form_post";
  /** Parameters every authorization URL of this provider carries. */
  authorizationParams?: (config: SocialProviderConfig) => Record<string, string>;
  /** Extra form fields sent when refreshing (Microsoft wants the scopes again). */
  refreshParams?: (config: SocialProviderConfig) => Record<string, string>;
  /** ID tokens from the client can be verified (the provider publishes a JWKS). */
  supportsIdToken: boolean;
  readProfile(input: ProfileInput): Promise<ProviderProfile | null>;
}

/** A configured provider, ready to use: definition, its config, and endpoints resolved. */
export interface ResolvedProvider {
  id: string;
  config: SocialProviderConfig;
  definition: ProviderDefinition;
  endpoints: ProviderEndpoints;
}
