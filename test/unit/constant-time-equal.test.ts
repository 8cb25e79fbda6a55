import { expect, it } from "vitest";
import { constantTimeEqual } from "../../src/crypto/random.ts";

// The comparison every secret check uses (API keys, the server token, signatures, codes): equal only when
// the strings are, whatever differs (one character anywhere, the length, a NUL, a look-alike letter).

it("is true for the same string, and only then", () => {
  const secret = "Ja2SGm8wRY_bOXpinRutFBBlvCaPIBst0Sp4BtARCuS-hzu8SPQB4BNznv9qTTv6";
  expect(constantTimeEqual(secret, `${secret}`)).toBe(true);
  expect(constantTimeEqual("", "")).toBe(true);
  for (let index = 0; index < secret.length; index++) {
    const changed = `${secret.slice(0, index)}${secret[index] === "x" ? "y" : "x"}${secret.slice(index + 1)}`;
    expect(constantTimeEqual(secret, changed)).toBe(false);
    expect(constantTimeEqual(changed, secret)).toBe(false);
  }
});

it("is false for a prefix, an extension, a NUL and look-alike characters", () => {
  expect(constantTimeEqual("secret", "secre")).toBe(false);
  expect(constantTimeEqual("secre", "secret")).toBe(false);
  expect(constantTimeEqual("secret", "secret\0")).toBe(false);
  expect(constantTimeEqual("", "a")).toBe(false);
  expect(constantTimeEqual("café", "cafe\u0301")).toBe(false);
  expect(constantTimeEqual("\u0430dmin", "admin")).toBe(false);
  expect(constantTimeEqual("\ud83d\ude00", "\ud83d\ude01")).toBe(false);
  // Lengths whose XOR with a character could cancel out are still different lengths
  expect(constantTimeEqual("\u0001", "\u0001\u0000")).toBe(false);
});
