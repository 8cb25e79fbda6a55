import { resolveApiURL } from "./base-url.ts";
import { type ClientFetch, createClientFetch, type FetchOptions } from "./fetch.ts";
import { callPath, createPathProxy } from "./proxy.ts";
import { changesSession } from "./routes.ts";
import { createSessionStore, type SessionState, type SessionStore } from "./session.ts";
import { endsTwoFactorPending, isTwoFactorRedirect } from "./two-factor.ts";

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
  /** Called when a sign-in answers `{ twoFactorRedirect: true }` (Better Auth's twoFactorClient option). */
  onTwoFactorRedirect?: () => void | Promise<void>;
}

export interface SignalStore {
  notify(signal: "$sessionSignal"): void;
  listen(signal: "$sessionSignal", listener: (state: SessionState) => void): () => void;
  atoms: { session: SessionStore };
}

export interface ClientParts {
  $fetch: ClientFetch;
  $session: SessionStore;
}

/** The parts shared by authd/client and authd/react; `extend` adds or replaces top-level members. */
export function createClientCore(
  options: AuthClientOptions,
  extend: (parts: ClientParts) => Record<string, unknown> = () => ({}),
): unknown {
  const $fetch = createClientFetch({
    apiURL: resolveApiURL(options.baseURL, options.basePath),
    defaults: options.fetchOptions ?? {},
    followRedirects: options.disableRedirect !== true,
  });
  const $session = createSessionStore($fetch);
  const hooks = {
    afterSuccess(path: string, data: unknown) {
      if (isTwoFactorRedirect(data)) {
        $session.setTwoFactorPending(true);
        void options.onTwoFactorRedirect?.();
      } else if (endsTwoFactorPending(path)) $session.setTwoFactorPending(false);
      if (changesSession(path)) $session.notify();
    },
  };
  // $store mirrors Better Auth's: apps call $store.notify("$sessionSignal") to make useSession refetch.
  const $store: SignalStore = {
    notify: (signal) => {
      if (signal === "$sessionSignal") $session.notify();
    },
    listen: (signal, listener) => (signal === "$sessionSignal" ? $session.listen(listener) : () => {}),
    atoms: { session: $session },
  };
  const members = { $fetch, $session, $store, useSession: $session, ...extend({ $fetch, $session }) };
  return createPathProxy(members, (path, input, callOptions) => callPath($fetch, hooks, path, input, callOptions));
}
