import { useCallback, useState } from "react";
import { errorMessage } from "./use-async-data.ts";

export interface ActionState {
  busy: boolean;
  error: string | undefined;
  notice: string | undefined;
  /**
   * Run an action; its failure is shown in place (never thrown). On success the notice is shown, or the
   * text the action answered when it answers one.
   */
  run(work: () => Promise<unknown>, notice?: string): Promise<boolean>;
  clear(): void;
}

export function useAction(onDone?: () => void): ActionState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const run = useCallback(
    async (work: () => Promise<unknown>, notice?: string) => {
      setBusy(true);
      setError(undefined);
      setNotice(undefined);
      try {
        const answer = await work();
        const message = notice ?? (typeof answer === "string" ? answer : undefined);
        if (message) setNotice(message);
        onDone?.();
        return true;
      } catch (failure) {
        setError(errorMessage(failure));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [onDone],
  );
  const clear = useCallback(() => {
    setError(undefined);
    setNotice(undefined);
  }, []);
  return { busy, error, notice, run, clear };
}
