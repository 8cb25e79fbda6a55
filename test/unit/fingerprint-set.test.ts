import { describe, expect, it } from "vitest";
import { FingerprintSet } from "../../src/platform/fingerprint-set.ts";

// The import's set of addresses seen: members found, non-members not, through growth, at a size where a
// Set of strings would hold far more memory.

describe("FingerprintSet", () => {
  it("answers membership as a Set does through many growths", () => {
    const set = new FingerprintSet(4);
    for (let i = 0; i < 200_000; i++) expect(set.add(`user${i}@example.com`)).toBe(true);
    expect(set.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 997) expect(set.has(`user${i}@example.com`)).toBe(true);
    for (let i = 200_000; i < 400_000; i += 991) expect(set.has(`user${i}@example.com`)).toBe(false);
    expect(set.add("user5@example.com")).toBe(false);
    expect(set.size).toBe(200_000);
  });

  it("keeps the empty string and strings alike but for case apart", () => {
    const set = new FingerprintSet();
    expect(set.add("")).toBe(true);
    expect(set.has("")).toBe(true);
    expect(set.add("Ann@example.com")).toBe(true);
    expect(set.has("ann@example.com")).toBe(false);
  });
});
