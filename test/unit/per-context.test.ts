import { describe, expect, it } from "vitest";
import { LocalState, perContext } from "../../src/platform/per-context.ts";

// Each feature declares its per-process state next to its code; the context only holds the store.

describe("perContext", () => {
  it("makes a feature's piece on first use, once per context, never shared between two contexts", () => {
    let made = 0;
    const counts = perContext(() => {
      made += 1;
      return new Map<string, number>();
    });
    const one = { local: new LocalState() };
    const two = { local: new LocalState() };
    expect(made).toBe(0);
    counts(one).set("key", 1);
    expect(counts(one).get("key")).toBe(1);
    expect(counts(two).get("key")).toBeUndefined();
    expect(made).toBe(2);
    // A transaction's context is a copy sharing the store: it sees the same piece.
    expect(counts({ ...one }).get("key")).toBe(1);
  });

  it("closes the pieces that need it, in the order they were made, and only those made", async () => {
    const closed: string[] = [];
    const first = perContext(
      () => "first",
      async (value) => {
        closed.push(value);
      },
    );
    const second = perContext(
      () => "second",
      async (value) => {
        closed.push(value);
      },
    );
    const unused = perContext(
      () => "unused",
      async (value) => {
        closed.push(value);
      },
    );
    const ctx = { local: new LocalState() };
    second(ctx);
    first(ctx);
    second(ctx);
    await ctx.local.close();
    expect(closed).toEqual(["second", "first"]);
    expect(unused).toBeTypeOf("function");
  });
});
