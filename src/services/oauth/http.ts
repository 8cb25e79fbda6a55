import type { SocialProviderConfig } from "../../config/schema.ts";
import type { OAuthTokens, ProviderEndpoints } from "./types.ts";

// Outbound calls to providers. Every call carries a timeout: a provider that hangs must not hold a
// request (or a worker) forever; it fails like a provider that answered with an error.

export class ProviderCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderCallError";
  }
}

export interface ProviderRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  form?: Record<string, string>;
  timeoutMs: number;
}

/** GET or POST and parse JSON; throws ProviderCallError on a timeout, a non-2xx answer or a body that is not JSON. */
export async function fetchProviderJSON<T = Record<string, unknown>>(
  url: string,
  request: ProviderRequest,
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", "user-agent": "authd", ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.form).toString();
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    throw new ProviderCallError(
      `request to ${new URL(url).host} failed: ${error instanceof Error ? error.name : "error"}`,
    );
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) throw new ProviderCallError(`${new URL(url).host} answered ${response.status}`, response.status);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderCallError(`${new URL(url).host} answered with something that is not JSON`, response.status);
  }
}

/** A bearer-authenticated GET, as user-info endpoints want. */
export function fetchWithAccessToken<T = Record<string, unknown>>(
  url: string,
  accessToken: string,
  timeoutMs: number,
): Promise<T> {
  return fetchProviderJSON<T>(url, { headers: { authorization: `Bearer ${accessToken}` }, timeoutMs });
}

function parseScopes(scope: unknown): string[] {
  if (Array.isArray(scope)) return scope.map(String);
  // Standard providers separate scopes with spaces; GitHub with commas.
  return typeof scope === "string" && scope !== "" ? scope.split(/[\s,]+/).filter(Boolean) : [];
}

function parseTokenResponse(data: Record<string, unknown>, now: number): OAuthTokens {
  // Some providers (GitHub) answer 200 with an error object instead of tokens.
  if (typeof data.error === "string") throw new ProviderCallError(`token endpoint refused: ${data.error}`);
  const accessToken = typeof data.access_token === "string" ? data.access_token : undefined;
  const idToken = typeof data.id_token === "string" ? data.id_token : undefined;
  if (!accessToken && !idToken) throw new ProviderCallError("token endpoint answered without a token");
  const seconds = (value: unknown) =>
    value === undefined || value === null || value === "" || Number.isNaN(Number(value))
      ? undefined
      : now + Number(value) * 1000;
  return {
    accessToken,
    idToken,
    refreshToken: typeof data.refresh_token === "string" ? data.refresh_token : undefined,
    tokenType: typeof data.token_type === "string" ? data.token_type : undefined,
    accessTokenExpiresAt: seconds(data.expires_in),
    refreshTokenExpiresAt: seconds(data.refresh_token_expires_in),
    scopes: parseScopes(data.scope),
  };
}

/** Trade an authorization code (and the PKCE verifier) for tokens. */
export async function exchangeAuthorizationCode(
  endpoints: ProviderEndpoints,
  config: SocialProviderConfig,
  params: { code: string; codeVerifier: string; redirectURI: string; now: number },
): Promise<OAuthTokens> {
  const data = await fetchProviderJSON(endpoints.tokenEndpoint, {
    form: {
      grant_type: "authorization_code",
      code: params.code,
      code_verifier: params.codeVerifier,
      redirect_uri: params.redirectURI,
      client_id: config.clientId,
      client_secret: config.clientSecret,
    },
    timeoutMs: config.timeoutMs,
  });
  return parseTokenResponse(data, params.now);
}

/** Use a refresh token; a provider that does not rotate it leaves the old one valid (kept by the caller). */
export async function refreshAccessToken(
  endpoints: ProviderEndpoints,
  config: SocialProviderConfig,
  params: { refreshToken: string; now: number; extra?: Record<string, string> },
): Promise<OAuthTokens> {
  const data = await fetchProviderJSON(endpoints.tokenEndpoint, {
    form: {
      grant_type: "refresh_token",
      refresh_token: params.refreshToken,
      client_id: config.clientId,
      client_secret: config.clientSecret,
      ...params.extra,
    },
    timeoutMs: config.timeoutMs,
  });
  return parseTokenResponse(data, params.now);
}
