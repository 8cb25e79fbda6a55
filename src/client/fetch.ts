import { parseBody, toQueryString } from "./json.ts";
import { isRetryable, type RetryOption, retryAttempts, retryDelay, serverRetryAfterMs } from "./retry.ts";
import { type HttpMethod, methodFor } from "./routes.ts";

// One request to authd: URL under the base path, JSON in and out, cookies included, hooks, retries, and
// a `{ data, error }` result instead of exceptions for answers the server gives.

/** The server's `{ code, message }` plus the HTTP status. Status 0: no answer (network, aborted). */
export interface AuthClientError {
  code?: string;
  message?: string;
  status: number;
  statusText: string;
  details?: unknown;
  [field: string]: unknown;
}

export type AuthResult<T> = { data: T; error: null } | { data: null; error: AuthClientError };

export interface RequestContext {
  url: URL;
  method: HttpMethod;
  headers: Headers;
  body?: Record<string, unknown>;
  /** 0 for the first try. */
  retryAttempt: number;
}

export interface SuccessContext<T = unknown> {
  data: T;
  response: Response;
  request: RequestContext;
}

export interface ErrorContext {
  error: AuthClientError;
  /** Null when no answer came. */
  response: Response | null;
  request: RequestContext;
}

export interface FetchHooks {
  onRequest?: (context: RequestContext) => void | Promise<void>;
  onResponse?: (context: { response: Response; request: RequestContext }) => void | Promise<void>;
  onSuccess?: (context: SuccessContext) => void | Promise<void>;
  /** Called once, after the last retry. */
  onError?: (context: ErrorContext) => void | Promise<void>;
  onRetry?: (context: ErrorContext) => void | Promise<void>;
}

export interface FetchOptions extends FetchHooks {
  headers?: Record<string, string> | Headers;
  /** Defaults to "include" where the platform supports it, so the session cookie travels cross-origin. */
  credentials?: RequestCredentials;
  retry?: RetryOption;
  signal?: AbortSignal;
  /** The fetch to use (a server-side cookie jar, a test double of the network). Default: global fetch. */
  customFetchImpl?: typeof fetch;
}

export interface CallOptions extends FetchOptions {
  method?: HttpMethod;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

export interface ClientFetchConfig {
  /** Absolute URL of the API root (base URL + base path). */
  apiURL: string;
  defaults: FetchOptions;
  /** Follow `{ url, redirect: true }` answers in a browser. */
  followRedirects: boolean;
}

export type ClientFetch = <T = unknown>(path: string, options?: CallOptions) => Promise<AuthResult<T>>;

const credentialsSupported = typeof Request !== "undefined" && "credentials" in Request.prototype;

function toError(response: Response | null, body: unknown, failure?: unknown): AuthClientError {
  if (!response) {
    const message = failure instanceof Error ? failure.message : "The server could not be reached";
    return { code: "NETWORK_ERROR", message, status: 0, statusText: "" };
  }
  const fields =
    body !== null && typeof body === "object" && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { message: typeof body === "string" && body ? body : response.statusText };
  return { ...fields, status: response.status, statusText: response.statusText };
}

function followRedirect(data: unknown): void {
  if (data === null || typeof data !== "object") return;
  const { url, redirect } = data as { url?: unknown; redirect?: unknown };
  if (typeof url !== "string" || redirect !== true) return;
  const location = (globalThis as { window?: { location?: { href: string } } }).window?.location;
  if (location) location.href = url;
}

async function runHooks<C>(
  hooks: Array<((context: C) => void | Promise<void>) | undefined>,
  context: C,
): Promise<void> {
  for (const hook of hooks) if (hook) await hook(context);
}

function buildRequest(
  config: ClientFetchConfig,
  path: string,
  options: CallOptions,
  method: HttpMethod,
  attempt: number,
): RequestContext {
  const url = new URL(
    `${config.apiURL.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}${toQueryString(options.query)}`,
  );
  const headers = new Headers(config.defaults.headers);
  for (const [name, value] of new Headers(options.headers)) headers.set(name, value);
  const body = method === "GET" ? undefined : (options.body ?? {});
  if (body !== undefined) headers.set("content-type", "application/json");
  return { url, method, headers, body, retryAttempt: attempt };
}

export function createClientFetch(config: ClientFetchConfig): ClientFetch {
  const defaults = config.defaults;
  return async function clientFetch<T>(path: string, options: CallOptions = {}): Promise<AuthResult<T>> {
    const method = methodFor(path, options.body ?? {}, options.method);
    const retry = options.retry ?? defaults.retry;
    const attempts = retryAttempts(retry);
    const fetchImpl = options.customFetchImpl ?? defaults.customFetchImpl ?? fetch;
    const credentials = options.credentials ?? defaults.credentials ?? (credentialsSupported ? "include" : undefined);

    for (let attempt = 0; ; attempt++) {
      const request = buildRequest(config, path, options, method, attempt);
      await runHooks([defaults.onRequest, options.onRequest], request);
      let response: Response | null = null;
      let failure: unknown;
      try {
        response = await fetchImpl(request.url, {
          method,
          headers: request.headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: options.signal ?? defaults.signal,
          ...(credentials ? { credentials } : {}),
        });
      } catch (error) {
        failure = error;
      }
      const body = response ? parseBody(await response.text()) : null;
      if (response) await runHooks([defaults.onResponse, options.onResponse], { response, request });

      if (response?.ok) {
        const success: SuccessContext<T> = { data: body as T, response, request };
        await runHooks([defaults.onSuccess, options.onSuccess], success as SuccessContext);
        if (config.followRedirects) followRedirect(body);
        return { data: body as T, error: null };
      }

      const error = toError(response, body, failure);
      const errorContext: ErrorContext = { error, response, request };
      const aborted = (options.signal ?? defaults.signal)?.aborted === true;
      if (retry !== undefined && !aborted && attempt < attempts && isRetryable(retry, response)) {
        await runHooks([defaults.onRetry, options.onRetry], errorContext);
        const wait = Math.max(retryDelay(retry, attempt), serverRetryAfterMs(response));
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      await runHooks([defaults.onError, options.onError], errorContext);
      return { data: null, error };
    }
  };
}
