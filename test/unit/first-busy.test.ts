import { describe, expect, test } from "vitest";
import { firstBusyWindow } from "../../src/platform/first-busy.ts";

/** A detector for 5 requests within 1,000 ms on a clock the test moves. */
function detector() {
  const state = { clock: 0, fired: 0 };
  const note = firstBusyWindow(
    5,
    1000,
    () => (state.fired += 1),
    () => state.clock,
  );
  return { state, note };
}

describe("firstBusyWindow", () => {
  test("stays quiet while requests come slower than the threshold, however many in all", () => {
    // Given a detector for 5 requests within 1,000 ms
    const { state, note } = detector();
    // When 100 requests come 250 ms apart (4 in any window)
    for (let i = 0; i < 100; i += 1, state.clock += 250) note();
    // Then it never fires
    expect(state.fired).toBe(0);
  });

  test("fires once, on the request that completes a busy window", () => {
    // Given a detector for 5 requests within 1,000 ms, after a quiet start
    const { state, note } = detector();
    note();
    state.clock = 5000;
    // When 4 requests arrive within 10 ms, it has not fired yet; the fifth fires it
    for (let i = 0; i < 4; i += 1, state.clock += 2) note();
    expect(state.fired).toBe(0);
    note();
    expect(state.fired).toBe(1);
    // Then later bursts do not fire it again
    for (let i = 0; i < 50; i += 1) note();
    expect(state.fired).toBe(1);
  });
});
