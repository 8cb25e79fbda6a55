import { useSyncExternalStore } from "react";
import type { AuthClient } from "./client-types.ts";
import { type AuthClientOptions, createClientCore } from "./core.ts";
import type { SessionState } from "./session.ts";
import type { ReadableStore } from "./store.ts";

// authd/react: the same client, with useSession() as a React hook.

/** Subscribes a component to a store; re-renders on every change. */
export function useStore<T>(store: ReadableStore<T>): T {
  return useSyncExternalStore(store.listen, store.get, store.get);
}

export type ReactAuthClient = Omit<AuthClient, "useSession"> & {
  /** `{ data, error, isPending, isRefetching, refetch }` for the current session. */
  useSession: () => SessionState;
};

export function createAuthClient(options: AuthClientOptions = {}): ReactAuthClient {
  return createClientCore(options, ({ $session }) => ({ useSession: () => useStore($session) })) as ReactAuthClient;
}

export type * from "./index.ts";
