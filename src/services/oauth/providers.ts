import type { SocialProviderConfig } from "../../config/schema.ts";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { fetchProviderJSON } from "./http.ts";
import {
  readAppleProfile,
  readDiscordProfile,
  readGitHubProfile,
  readGitLabProfile,
  readMicrosoftProfile,
  readOpenIdProfile,
} from "./profiles.ts";
import type { ProviderDefinition, ProviderEndpoints, ResolvedProvider } from "./types.ts";

// The built-in providers with their public endpoints and default scopes, and the generic OpenID
// Connect provider configured from an issuer's discovery document. Every endpoint can be overridden
// in config (self-hosted instances, tests).

const MICROSOFT_SCOPES = ["openid", "profile", "email", "User.Read", "offline_access"];

export const BUILT_IN_PROVIDERS: Record<string, ProviderDefinition> = {
  google: {
    name: "Google",
    endpoints: {
      authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenEndpoint: "https://oauth2.googleapis.com/token",
      userInfoEndpoint: "https://openidconnect.googleapis.com/v1/userinfo",
      jwksURI: "https://www.googleapis.com/oauth2/v3/certs",
      issuer: ["https://accounts.google.com", "accounts.google.com"],
    },
    defaultScopes: ["openid", "email", "profile"],
    authorizationParams: () => ({ include_granted_scopes: "true" }),
    supportsIdToken: true,
    readProfile: readOpenIdProfile,
  },
  github: {
    name: "GitHub",
    endpoints: {
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      tokenEndpoint: "https://github.com/login/oauth/access_token",
      userInfoEndpoint: "https://api.github.com/user",
      emailsEndpoint: "https://api.github.com/user/emails",
    },
    defaultScopes: ["read:user", "user:email"],
    supportsIdToken: false,
    readProfile: readGitHubProfile,
  },
  microsoft: {
    name: "Microsoft",
    // The "common" tenant: its ID tokens carry the user's own tenant as issuer, so only the audience
    // is checked unless an issuer is configured.
    endpoints: {
      authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
      tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
      userInfoEndpoint: "https://graph.microsoft.com/oidc/userinfo",
      jwksURI: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
    },
    defaultScopes: MICROSOFT_SCOPES,
    refreshParams: (config) => ({ scope: (config.scopes ?? MICROSOFT_SCOPES).join(" ") }),
    supportsIdToken: true,
    readProfile: readMicrosoftProfile,
  },
  apple: {
    name: "Apple",
    endpoints: {
      authorizationEndpoint: "https://appleid.apple.com/auth/authorize",
      tokenEndpoint: "https://appleid.apple.com/auth/token",
      jwksURI: "https://appleid.apple.com/auth/keys",
      issuer: "https://appleid.apple.com",
    },
    defaultScopes: ["name", "email"],
    // Apple posts the code back (and only then releases the name), so the callback accepts POST.
    responseMode: "form_post",
    supportsIdToken: true,
    readProfile: readAppleProfile,
  },
  discord: {
    name: "Discord",
    endpoints: {
      authorizationEndpoint: "https://discord.com/oauth2/authorize",
      tokenEndpoint: "https://discord.com/api/oauth2/token",
      userInfoEndpoint: "https://discord.com/api/users/@me",
    },
    defaultScopes: ["identify", "email"],
    authorizationParams: (config) => ({ prompt: config.prompt ?? "none" }),
    supportsIdToken: false,
    readProfile: readDiscordProfile,
  },
  gitlab: {
    name: "GitLab",
    endpointsFromIssuer: (issuer) => {
      const base = issuer.replace(/\/+$/, "");
      return {
        authorizationEndpoint: `${base}/oauth/authorize`,
        tokenEndpoint: `${base}/oauth/token`,
        userInfoEndpoint: `${base}/api/v4/user`,
      };
    },
    endpoints: {
      authorizationEndpoint: "https://gitlab.com/oauth/authorize",
      tokenEndpoint: "https://gitlab.com/oauth/token",
      userInfoEndpoint: "https://gitlab.com/api/v4/user",
    },
    defaultScopes: ["read_user"],
    supportsIdToken: false,
    readProfile: readGitLabProfile,
  },
};

const GENERIC_OPENID: ProviderDefinition = {
  name: "OpenID Connect",
  defaultScopes: ["openid", "email", "profile"],
  supportsIdToken: true,
  readProfile: readOpenIdProfile,
};

interface DiscoveryDocument {
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
}

/** The issuer's discovery document, fetched once per context (see ProviderCache). */
async function discover(ctx: AuthContext, issuer: string, timeoutMs: number): Promise<Partial<ProviderEndpoints>> {
  const discoveryCache = ctx.providerCache.discovery;
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let pending = discoveryCache.get(url);
  if (!pending) {
    pending = fetchProviderJSON<DiscoveryDocument>(url, { timeoutMs }).then((doc) => ({
      authorizationEndpoint: doc.authorization_endpoint,
      tokenEndpoint: doc.token_endpoint,
      userInfoEndpoint: doc.userinfo_endpoint,
      jwksURI: doc.jwks_uri,
      issuer: doc.issuer ?? issuer,
    }));
    discoveryCache.set(url, pending);
    pending.catch(() => discoveryCache.delete(url));
  }
  return pending;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function explicitEndpoints(config: SocialProviderConfig): Partial<ProviderEndpoints> {
  return withoutUndefined({
    authorizationEndpoint: config.authorizationEndpoint,
    tokenEndpoint: config.tokenEndpoint,
    userInfoEndpoint: config.userInfoEndpoint,
    jwksURI: config.jwksURI,
    emailsEndpoint: config.emailsEndpoint,
  });
}

/** The definition for a configured id: a built-in one, or generic OpenID Connect for any other id. */
export function providerDefinition(id: string): ProviderDefinition {
  return BUILT_IN_PROVIDERS[id] ?? GENERIC_OPENID;
}

export function isProviderConfigured(ctx: AuthContext, id: string): boolean {
  return Object.hasOwn(ctx.config.social, id);
}

/**
 * The provider for `id` with its endpoints: built-in defaults, then the issuer (discovery, or the
 * provider's own derivation), then endpoints given explicitly in config. Null when `id` is not
 * configured. Throws ProviderCallError when discovery fails, and Error when endpoints stay missing.
 */
export async function resolveProvider(ctx: AuthContext, id: string): Promise<ResolvedProvider | null> {
  if (!isProviderConfigured(ctx, id)) return null;
  const config = ctx.config.social[id];
  const definition = providerDefinition(id);
  let fromIssuer: Partial<ProviderEndpoints> = {};
  if (config.issuer)
    fromIssuer = definition.endpointsFromIssuer
      ? definition.endpointsFromIssuer(config.issuer)
      : await discover(ctx, config.issuer, config.timeoutMs);
  const merged = { ...definition.endpoints, ...withoutUndefined(fromIssuer), ...explicitEndpoints(config) };
  if (!merged.authorizationEndpoint || !merged.tokenEndpoint) {
    throw new Error(`social provider "${id}" has no authorization or token endpoint: set an issuer or the endpoints`);
  }
  return { id, config, definition, endpoints: merged as ProviderEndpoints };
}

export function redirectURIFor(ctx: AuthContext, provider: ResolvedProvider): string {
  return provider.config.redirectURI ?? `${ctx.apiURL}/callback/${provider.id}`;
}

export function scopesFor(provider: ResolvedProvider, requested: string[] | undefined): string[] {
  const base = provider.config.scopes ?? provider.definition.defaultScopes;
  return [...new Set([...base, ...(requested ?? [])])];
}

/** resolveProvider for routes: 404 Provider not found, 503 when the issuer's discovery document is unreachable. */
export async function requireProvider(ctx: AuthContext, id: string): Promise<ResolvedProvider> {
  let provider: ResolvedProvider | null;
  try {
    provider = await resolveProvider(ctx, id);
  } catch (error) {
    ctx.logger.error("social provider unavailable", { provider: id, error });
    throw new AuthError("PROVIDER_UNAVAILABLE", { cause: error });
  }
  if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
  return provider;
}
