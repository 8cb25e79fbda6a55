// Background work of the daemon that repeats: a pass, then a pause of `intervalMs`, then the next pass, so
// passes never overlap and a slow pass delays the next instead of piling up. Never on the request path; the
// timer does not keep the process alive.

export interface RepeatingTask {
  /** Set once stop() is called: a pass that loops checks it to end early. */
  readonly stopped: boolean;
  /** No pass starts after this; resolves once the pass running now has ended. */
  stop(): Promise<void>;
}

/** Run `pass` every `intervalMs` (the first after one interval); a failed pass is reported and the next still runs. */
export function repeatEvery(
  intervalMs: number,
  pass: () => Promise<void>,
  onError: (error: unknown) => void,
): RepeatingTask {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().catch(onError).finally(schedule);
    }, intervalMs);
    timer.unref?.();
  };
  schedule();
  return {
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
