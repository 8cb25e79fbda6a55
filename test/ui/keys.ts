// Key presses as a terminal sends them, and a wait for what the screen shows.

export const KEYS = {
  up: "\u001B[A",
  down: "\u001B[B",
  right: "\u001B[C",
  left: "\u001B[D",
  enter: "\r",
  escape: "\u001B",
  tab: "\t",
  backspace: "\u007F",
} as const;

interface Rendered {
  lastFrame(): string | undefined;
}

/** Wait (up to 5 s) until the last frame contains the text or satisfies the check; returns that frame. */
export async function waitForFrame(
  ui: Rendered,
  expected: string | ((frame: string) => boolean),
  timeoutMs = 5000,
): Promise<string> {
  const matches = typeof expected === "string" ? (frame: string) => frame.includes(expected) : expected;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = ui.lastFrame() ?? "";
    if (matches(frame)) return frame;
    if (Date.now() > deadline)
      throw new Error(
        `the screen never showed ${typeof expected === "string" ? JSON.stringify(expected) : "the expected state"}; last frame:\n${frame}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
