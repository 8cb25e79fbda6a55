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
  /**
   * A sign-in stopped at the second factor ({twoFactorRedirect: true}): no session yet, and the app should
   * ask for a code (client.twoFactor.verifyTotp / sendOtp + verifyOtp / verifyBackupCode).
   */
  twoFactorPending: boolean;
  refetch: () => Promise<void>;
}

export interface SessionStore extends ReadableStore<SessionState> {
  refetch(): Promise<void>;
  /** Signals that the session may have changed; refetches after 10 ms while anyone listens. */
  notify(): void;
  /** Marks a sign-in as waiting for its second factor (or no longer). */
  setTwoFactorPending(pending: boolean): void;
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
    const twoFactorPending = result.data === null && store.get().twoFactorPending;
    store.set({
      data: result.data,
      error: result.error,
      isPending: false,
      isRefetching: false,
      twoFactorPending,
      refetch,
    });
  }

  const store = createStore<SessionState>(
    { data: null, error: null, isPending: true, isRefetching: false, twoFactorPending: false, refetch },
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
    setTwoFactorPending(pending) {
      if (store.get().twoFactorPending !== pending) store.set({ ...store.get(), twoFactorPending: pending });
    },
    notify() {
      setTimeout(() => {
        if (store.isMounted()) void refetch();
      }, SESSION_SIGNAL_DELAY_MS);
    },
  };
}
