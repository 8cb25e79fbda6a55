import { describe, expect, it } from "vitest";
import { seal, unseal } from "../../src/crypto/sealed.ts";

const SECRET = "seal-test-secret-seal-test-secret-0123456789";

describe("seal", () => {
  it("reads back what it sealed, with a fresh IV each time", () => {
    const first = seal(SECRET, "email-otp", "123456");
    const second = seal(SECRET, "email-otp", "123456");
    expect(first).not.toBe(second);
    expect(first).not.toContain("123456");
    expect(unseal(SECRET, "email-otp", first)).toBe("123456");
    expect(unseal(SECRET, "email-otp", second)).toBe("123456");
  });

  it("refuses another secret, another purpose, altered or truncated text", () => {
    const sealed = seal(SECRET, "email-otp", "123456");
    expect(unseal(`${SECRET}x`, "email-otp", sealed)).toBeNull();
    expect(unseal(SECRET, "other", sealed)).toBeNull();
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length - 1] ^= 1;
    expect(unseal(SECRET, "email-otp", bytes.toString("base64url"))).toBeNull();
    expect(unseal(SECRET, "email-otp", sealed.slice(0, 20))).toBeNull();
    expect(unseal(SECRET, "email-otp", "")).toBeNull();
  });
});
