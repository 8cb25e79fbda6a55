// A minimal observable value with a mount lifecycle: work starts when the first listener arrives and
// stops a while after the last one leaves, so a component re-rendering does not restart it.

export type Listener<T> = (value: T) => void;

export interface ReadableStore<T> {
  get(): T;
  /** Calls the listener now and on every change; returns the unsubscribe function. */
  subscribe(listener: Listener<T>): () => void;
  /** Calls the listener on changes only. */
  listen(listener: Listener<T>): () => void;
}

export interface WritableStore<T> extends ReadableStore<T> {
  set(value: T): void;
  /** True between the first listener's arrival and the delayed stop after the last one left. */
  isMounted(): boolean;
}

export const UNMOUNT_DELAY_MS = 1000;

export function createStore<T>(
  initial: T,
  // biome-ignore lint/suspicious/noConfusingVoidType: onMount may return nothing or a cleanup function.
  onMount?: () => (() => void) | void,
  unmountDelayMs = UNMOUNT_DELAY_MS,
): WritableStore<T> {
  let value = initial;
  const listeners = new Set<Listener<T>>();
  let mounted = false;
  let stopMount: (() => void) | undefined;
  let unmountTimer: ReturnType<typeof setTimeout> | undefined;

  function unmountLater(): void {
    unmountTimer = setTimeout(() => {
      unmountTimer = undefined;
      if (listeners.size > 0 || !mounted) return;
      mounted = false;
      stopMount?.();
      stopMount = undefined;
    }, unmountDelayMs);
  }

  function listen(listener: Listener<T>): () => void {
    // Wrap so the same function may subscribe twice and leave independently.
    const entry: Listener<T> = (next) => listener(next);
    listeners.add(entry);
    if (unmountTimer !== undefined) {
      clearTimeout(unmountTimer);
      unmountTimer = undefined;
    }
    if (!mounted) {
      mounted = true;
      stopMount = onMount?.() ?? undefined;
    }
    return () => {
      if (!listeners.delete(entry)) return;
      if (listeners.size === 0) unmountLater();
    };
  }

  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(value);
    },
    listen,
    subscribe(listener) {
      const stop = listen(listener);
      listener(value);
      return stop;
    },
    isMounted: () => mounted,
  };
}
