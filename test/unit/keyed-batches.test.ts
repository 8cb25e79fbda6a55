import { describe, expect, it } from "vitest";
import { KeyedBatches } from "../../src/platform/keyed-work.ts";

// Batches of work per key (API-key lookups and uses): later arrivals gather while a batch runs, and no batch
// starts before all of its items arrived.

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("KeyedBatches", () => {
  it("gathers the items that arrive while a batch of their key runs into the next batch, in order", async () => {
    // Given a first item whose batch is held open
    const batches: string[][] = [];
    const gate = deferred();
    const queue = new KeyedBatches<string, string>();
    const work = async (items: string[]) => {
      batches.push([...items]);
      if (batches.length === 1) await gate.promise;
      return items.map((item) => item.toUpperCase());
    };
    const first = queue.run("k", "a", work);
    // When three more arrive meanwhile, then they wait, and run as one batch once the first ends
    const later = ["b", "c", "d"].map((item) => queue.run("k", item, work));
    await Promise.resolve();
    expect(batches).toEqual([["a"]]);
    gate.resolve();
    expect(await Promise.all([first, ...later])).toEqual(["A", "B", "C", "D"]);
    expect(batches).toEqual([["a"], ["b", "c", "d"]]);
  });

  it("never makes another key wait, and hands a batch's failure to each of its items only", async () => {
    const gate = deferred();
    const queue = new KeyedBatches<string, string>();
    const held = queue.run("slow", "x", async (items) => {
      await gate.promise;
      return items;
    });
    expect(await queue.run("other", "y", async (items) => items)).toBe("y");
    const failing = queue.run("bad", "z", async () => {
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    expect(await queue.run("bad", "again", async (items) => items)).toBe("again");
    gate.resolve();
    expect(await held).toBe("x");
  });

  it("keeps a memo between a key's batches and forgets it once the key is idle", async () => {
    const queue = new KeyedBatches<number, number, number>();
    const gate = deferred();
    const seen: (number | undefined)[] = [];
    const work = async (items: number[], memo: { value?: number }) => {
      seen.push(memo.value);
      memo.value = items[items.length - 1];
      if (seen.length === 1) await gate.promise;
      return items;
    };
    const first = queue.run("k", 1, work);
    const second = queue.run("k", 2, work);
    gate.resolve();
    await Promise.all([first, second]);
    await queue.run("k", 3, work);
    expect(seen).toEqual([undefined, 1, undefined]);
  });

  it("with gather, starts a key's first batch on the next turn, so the items of this turn share it", async () => {
    // Given a queue that gathers, and work that answers at once (as a SQLite write does)
    const batches: string[][] = [];
    const queue = new KeyedBatches<string, string>({ gather: true });
    const work = async (items: string[]) => {
      batches.push([...items]);
      return items.map((item) => item.toUpperCase());
    };
    // When items arrive one by one within one turn, each after the previous one's microtasks ran
    const results: Promise<string>[] = [];
    for (const item of ["a", "b", "c"]) {
      results.push(queue.run("k", item, work));
      await Promise.resolve();
    }
    // Then nothing ran in this turn, and the three run as one batch on the next
    expect(batches).toEqual([]);
    expect(await Promise.all(results)).toEqual(["A", "B", "C"]);
    expect(batches).toEqual([["a", "b", "c"]]);
    // And an item of a later turn starts a batch of its own
    expect(await queue.run("k", "d", work)).toBe("D");
    expect(batches).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("with depth, runs up to that many batches of a key at once, each started on a turn of its own, in order", async () => {
    // Given a queue of depth 2 whose batches are held open until released
    const started: string[][] = [];
    const gates: (() => void)[] = [];
    const queue = new KeyedBatches<string, string>({ gather: true, depth: 2 });
    const work = async (items: string[]) => {
      started.push([...items]);
      await new Promise<void>((resolve) => gates.push(resolve));
      return items.map((item) => item.toUpperCase());
    };
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // When items arrive over three turns
    const results = [queue.run("k", "a", work), queue.run("k", "b", work)];
    await turn();
    results.push(queue.run("k", "c", work));
    await turn();
    results.push(queue.run("k", "d", work), queue.run("k", "e", work));
    await turn();
    // Then the first two turns' items run as two batches at once, and the third turn's wait for a free slot
    expect(started).toEqual([["a", "b"], ["c"]]);
    gates.shift()?.();
    await turn();
    expect(started).toEqual([["a", "b"], ["c"], ["d", "e"]]);
    while (gates.length > 0 || started.length < 3) {
      gates.shift()?.();
      await turn();
    }
    expect(await Promise.all(results)).toEqual(["A", "B", "C", "D", "E"]);
    // And a key whose batches all ended starts afresh
    const again = queue.run("k", "f", work);
    await turn();
    gates.shift()?.();
    expect(await again).toBe("F");
  });

  it("with two turns, the items of the next turn join the batch too", async () => {
    const batches: string[][] = [];
    const queue = new KeyedBatches<string, string>({ gather: true, turns: 2 });
    const work = async (items: string[]) => {
      batches.push([...items]);
      return items;
    };
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // When one item arrives, and another one turn later
    const results = [queue.run("k", "a", work)];
    await turn();
    expect(batches).toEqual([]);
    results.push(queue.run("k", "b", work));
    // Then both run as one batch
    expect(await Promise.all(results)).toEqual(["a", "b"]);
    expect(batches).toEqual([["a", "b"]]);
  });
});
