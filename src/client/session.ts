import type { AuthClientError, ClientFetch } from "./fetch.ts";
import { createStore, type ReadableStore } from "./store.ts";
import type { SessionWithUser } from "./types.ts";

// The session store behind useSession(): fetched when the first listener arrives, refetched 10 ms after
// a call that may change the session (sign-in, sign-out, …), and idle 1 s after the last listener left.

export const SESSION_SIGNAL_DELAY_MS = 10;

export interface SessionState {
  data: SessionWithUser | null;
  error: AuthClientError | null;
  /** True until the first answer (and while refetching with no data yet). */
  isPending: boolean;
  isRefetching: boolean;
  refetch: () => Promise<void>;
}

export interface SessionStore extends ReadableStore<SessionState> {
  refetch(): Promise<void>;
  /** Signals that the session may have changed; refetches after 10 ms while anyone listens. */
  notify(): void;
}

export function createSessionStore(clientFetch: ClientFetch): SessionStore {
  let latest = 0;
  let loadTimer: ReturnType<typeof setTimeout> | undefined;

  async function refetch(): Promise<void> {
    // Only the newest request may write: an old answer must not overwrite a newer session.
    const sequence = ++latest;
    const current = store.get();
    store.set({ ...current, isPending: current.data === null, isRefetching: true, error: null });
    const result = await clientFetch<SessionWithUser | null>("/get-session", { method: "GET" });
    if (sequence !== latest) return;
    store.set({ data: result.data, error: result.error, isPending: false, isRefetching: false, refetch });
  }

  const store = createStore<SessionState>(
    { data: null, error: null, isPending: true, isRefetching: false, refetch },
    () => {
      loadTimer = setTimeout(() => void refetch(), 0);
      return () => clearTimeout(loadTimer);
    },
  );

  return {
    get: store.get,
    subscribe: store.subscribe,
    listen: store.listen,
    refetch,
    notify() {
      setTimeout(() => {
        if (store.isMounted()) void refetch();
      }, SESSION_SIGNAL_DELAY_MS);
    },
  };
}
