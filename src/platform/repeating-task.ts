// Background work of the daemon that repeats: a pass, then a pause of `intervalMs`, then the next pass, so
// passes never overlap and a slow pass delays the next instead of piling up. Never on the request path; the
// timer does not keep the process alive.

export interface RepeatingTask {
  /** Set once stop() is called: a pass that loops checks it to end early. */
  readonly stopped: boolean;
  /** Settles when the first pass has ended (or the task stopped before it ran). */
  readonly firstPass: Promise<void>;
  /** No pass starts after this; resolves once the pass running now has ended. */
  stop(): Promise<void>;
}

/**
 * Run `pass` every `intervalMs`, the first after one interval (or after `firstAfterMs`); a failed pass is
 * reported and the next still runs.
 */
export function repeatEvery(
  intervalMs: number,
  pass: () => Promise<void>,
  onError: (error: unknown) => void,
  options: { firstAfterMs?: number } = {},
): RepeatingTask {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let firstEnded: () => void = () => {};
  const firstPass = new Promise<void>((resolve) => (firstEnded = resolve));
  const schedule = (delay = intervalMs) => {
    if (stopped) return firstEnded();
    timer = setTimeout(() => {
      running = pass()
        .catch(onError)
        .finally(() => {
          firstEnded();
          schedule();
        });
    }, delay);
    timer.unref?.();
  };
  schedule(options.firstAfterMs ?? intervalMs);
  return {
    firstPass,
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      firstEnded();
      await running;
    },
  };
}
