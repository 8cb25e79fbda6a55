import { useCallback, useEffect, useRef, useState } from "react";

export interface AsyncData<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload(): void;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Load data for a screen and reload it when its inputs change. Only the latest request's answer is
 * kept, so fast typing in a search box never shows an older result last. Failures become a message.
 */
export function useAsyncData<T>(load: () => Promise<T>, inputs: unknown[]): AsyncData<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean; key?: string }>({ loading: true });
  const key = JSON.stringify(inputs);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: load is a fresh closure each render; the inputs it reads decide a reload.
  useEffect(() => {
    const request = ++latest.current;
    let alive = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => {
        if (alive && request === latest.current) setState({ data, loading: false, key });
      },
      (error: unknown) => {
        if (alive && request === latest.current)
          setState((previous) => ({ data: previous.data, error: errorMessage(error), loading: false }));
      },
    );
    return () => {
      alive = false;
    };
  }, [...inputs, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // Until the answer for the current inputs arrives, the data shown is the previous one: say so.
  return { data: state.data, error: state.error, loading: state.loading || state.key !== key, reload };
}
