import { describe, expect, test } from "vitest";
import { repeatEvery } from "../../src/platform/repeating-task.ts";

describe("repeatEvery", () => {
  test("firstPass settles once the first pass, one interval after the start, has ended", async () => {
    // Given a task repeating every 20 ms
    const passes: number[] = [];
    const started = Date.now();
    const task = repeatEvery(
      20,
      async () => void passes.push(Date.now() - started),
      () => {},
    );
    // When its first pass has ended
    await task.firstPass;
    // Then it ran once, after one interval
    expect(passes).toHaveLength(1);
    expect(passes[0]).toBeGreaterThanOrEqual(15);
    await task.stop();
  });

  test("with firstAfterMs 0 the first pass runs at once, not an interval later", async () => {
    // Given a task repeating every minute whose first pass is asked for at once
    const passes: number[] = [];
    const task = repeatEvery(
      60_000,
      async () => void passes.push(1),
      () => {},
      { firstAfterMs: 0 },
    );
    // When its first pass has ended
    await task.firstPass;
    // Then it ran once
    expect(passes).toHaveLength(1);
    await task.stop();
  });

  test("stopping before the first pass settles firstPass, and the pass never runs", async () => {
    // Given a task whose first pass is a minute away
    let ran = false;
    const task = repeatEvery(
      60_000,
      async () => {
        ran = true;
      },
      () => {},
    );
    // When it is stopped first
    await task.stop();
    await task.firstPass;
    // Then the pass never ran
    expect(ran).toBe(false);
  });

  test("a failed first pass is reported and still settles firstPass", async () => {
    // Given a task whose pass fails
    const errors: unknown[] = [];
    const task = repeatEvery(
      10,
      async () => {
        throw new Error("database gone");
      },
      (error) => errors.push(error),
    );
    // When the first pass has ended
    await task.firstPass;
    // Then its failure was reported
    expect(errors).toHaveLength(1);
    await task.stop();
  });
});
