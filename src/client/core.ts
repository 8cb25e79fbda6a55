import { resolveApiURL } from "./base-url.ts";
import { type ClientFetch, createClientFetch, type FetchOptions } from "./fetch.ts";
import { callPath, createPathProxy } from "./proxy.ts";
import { changesSession } from "./routes.ts";
import { createSessionStore, type SessionStore } from "./session.ts";

// What authd/client and authd/react share: options, the fetch, the session store and the path proxy.

export interface AuthClientOptions {
  /** Origin of authd (e.g. https://auth.example.com). Default in a browser: the page's origin. */
  baseURL?: string;
  /** Path of the API under the base URL. Default /api/auth, unless baseURL already has a path. */
  basePath?: string;
  /** Defaults for every call: headers, credentials, retry, hooks, customFetchImpl. */
  fetchOptions?: FetchOptions;
  /** Do not send the browser to `url` when an answer says `{ url, redirect: true }`. */
  disableRedirect?: boolean;
}

export interface ClientParts {
  $fetch: ClientFetch;
  $session: SessionStore;
}

/** The parts shared by authd/client and authd/react; `extend` adds or replaces top-level members. */
export function createClientCore(options: AuthClientOptions, extend: (parts: ClientParts) => Record<string, unknown> = () => ({})): unknown {
  const $fetch = createClientFetch({
    apiURL: resolveApiURL(options.baseURL, options.basePath),
    defaults: options.fetchOptions ?? {},
    followRedirects: options.disableRedirect !== true,
  });
  const $session = createSessionStore($fetch);
  const hooks = {
    afterSuccess(path: string) {
      if (changesSession(path)) $session.notify();
    },
  };
  const members = { $fetch, $session, useSession: $session, ...extend({ $fetch, $session }) };
  return createPathProxy(members, (path, input, callOptions) => callPath($fetch, hooks, path, input, callOptions));
}
