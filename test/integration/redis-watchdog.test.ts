import { afterEach, describe, expect, it } from "vitest";
import { createRedisStorage, type SecondaryStorage } from "../../src/platform/secondary-storage.ts";
import { REDIS_URL, redisSkipped } from "../helpers/redis.ts";

// The watchdog marks Redis down when a command waits longer than the timeout with no answer. A stall of
// this process (a busy event loop, a loaded machine) is not Redis's silence: the answer is already there,
// unread behind the watchdog's timer, and must not turn into a 503.

function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose: nothing else in this process runs meanwhile
  }
}

describe.skipIf(redisSkipped)("Redis watchdog", () => {
  let storage: SecondaryStorage | undefined;
  afterEach(async () => {
    await storage?.close();
  });

  it("does not count a stall of this process as Redis's silence", async () => {
    storage = createRedisStorage(REDIS_URL, { keyPrefix: `test:watchdog:${Date.now()}:`, timeoutMs: 100 });
    await storage.set("k", "v", 60);
    for (let round = 0; round < 5; round++) {
      const pending = storage.get("k");
      blockEventLoop(400);
      expect(await pending).toBe("v");
      expect(await storage.get("k")).toBe("v");
    }
  });

  it("still marks down a connection that answers nothing while this process runs", async () => {
    // A server that accepts the connection and never answers: a blackholed network, seen from here.
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      storage = createRedisStorage(`redis://127.0.0.1:${silent.port}`, { timeoutMs: 1000 });
      const started = performance.now();
      await expect(storage.get("k")).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(5000);
      // Down now: the next command fails at once, without waiting for the timeout again.
      const again = performance.now();
      await expect(storage.get("k")).rejects.toThrow();
      expect(performance.now() - again).toBeLessThan(500);
    } finally {
      silent.stop(true);
    }
  });
});
