// Tells when the daemon is busy for the first time: `count` requests within one window. serve holds the JIT
// back until then (src/cli/commands/serve.ts): what an idle daemon runs (its timers' passes, a health check)
// is not worth compiling, while a busy one compiles its hot request paths as usual.

/** Call the returned function on each request: the first time `count` calls fall in one window, `onBusy` runs (once). */
export function firstBusyWindow(
  count: number,
  windowMs: number,
  onBusy: () => void,
  now: () => number = () => performance.now(),
): () => void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let seen = 0;
  let fired = false;
  return () => {
    if (fired) return;
    const at = now();
    if (at - windowStart >= windowMs) {
      windowStart = at;
      seen = 0;
    }
    seen += 1;
    if (seen >= count) {
      fired = true;
      onBusy();
    }
  };
}
