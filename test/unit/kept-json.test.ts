import { describe, expect, it } from "vitest";
import { keepJSON, keptJSON } from "../../src/http/kept-json.ts";

// An answer handed out many times is serialized once; only answers marked (and frozen) are.

describe("keptJSON", () => {
  it("freezes a kept answer and what it holds, so its text cannot go stale", () => {
    const answer = keepJSON({ session: { id: "s" }, user: { id: "u", name: "Ada" } });
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.user)).toBe(true);
    expect(() => {
      (answer.user as { name: string }).name = "Mallory";
    }).toThrow(TypeError);
    expect(keptJSON(answer)).toBe(JSON.stringify({ session: { id: "s" }, user: { id: "u", name: "Ada" } }));
    expect(keptJSON(answer)).toBe(keptJSON(answer));
  });

  it("keeps nothing for values it was not given", () => {
    expect(keptJSON({ session: { id: "s" } })).toBeUndefined();
    expect(keptJSON(null)).toBeUndefined();
    expect(keptJSON("text")).toBeUndefined();
    expect(keptJSON(undefined)).toBeUndefined();
  });
});
