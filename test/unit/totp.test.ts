import { describe, expect, it } from "vitest";
import { seal, unseal } from "../../src/crypto/sealed.ts";
import {
  base32Decode,
  base32Encode,
  binaryTotpKey,
  hotp,
  matchTotpStep,
  totpCode,
  totpKeyBytes,
} from "../../src/crypto/totp.ts";

describe("TOTP (RFC 6238, HMAC-SHA1, 6 digits)", () => {
  // RFC 6238 appendix B, SHA-1 key "12345678901234567890": the 8-digit values' last 6 digits.
  const key = "12345678901234567890";
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
    [20000000000, "353130"],
  ])("at %i s the code is %s", (seconds, code) => {
    expect(totpCode(key, seconds * 1000)).toBe(code);
  });

  it("matches RFC 4226's HOTP values (appendix D)", () => {
    expect([0, 1, 2, 9].map((counter) => hotp(key, counter))).toEqual(["755224", "287082", "359152", "520489"]);
  });

  it("accepts the step either side of now and no further", () => {
    const now = 1_700_000_000_000;
    expect(matchTotpStep(key, totpCode(key, now - 30_000), now)).toBe(Math.floor(now / 30_000) - 1);
    expect(matchTotpStep(key, totpCode(key, now + 30_000), now)).toBe(Math.floor(now / 30_000) + 1);
    expect(matchTotpStep(key, totpCode(key, now - 60_000), now)).toBeNull();
    expect(matchTotpStep(key, totpCode(key, now - 30_000), now, 0)).toBeNull();
  });

  it("writes RFC 4648 base32 without padding", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Encode(Buffer.from("f"))).toBe("MY");
    expect(base32Encode(Buffer.from("a".repeat(32)))).toHaveLength(52);
  });

  it("reads base32 back, padded or not, any case; refuses what is not base32", () => {
    expect(Buffer.from(base32Decode("MZXW6YTBOI") ?? []).toString()).toBe("foobar");
    expect(Buffer.from(base32Decode("mzxw6ytboi======") ?? []).toString()).toBe("foobar");
    expect(base32Decode("MZ1W")).toBeNull();
  });

  it("keys a binary secret kept as base32: by its bytes, and any other secret by its UTF-8 bytes", () => {
    const key = Buffer.from([0, 255, 1, 128, 7, 9, 200, 3, 4, 5]);
    const stored = binaryTotpKey(base32Encode(key));
    expect(stored.startsWith("base32:")).toBe(true);
    expect(totpKeyBytes(stored).equals(key)).toBe(true);
    expect(totpKeyBytes("plain-secret").toString()).toBe("plain-secret");
    // RFC 6238's SHA-1 key, as bytes or as the text whose bytes they are: the same codes.
    const rfc = "12345678901234567890";
    expect(totpCode(binaryTotpKey(base32Encode(Buffer.from(rfc))), 59_000)).toBe(totpCode(rfc, 59_000));
  });
});

describe("encryption under the app secret", () => {
  const secret = "a-secret-of-at-least-thirty-two-characters";
  it("reads back what it wrote, and nothing under another secret, purpose or tampering", () => {
    const sealed = seal(secret, "two-factor-secret", "hello");
    expect(unseal(secret, "two-factor-secret", sealed)).toBe("hello");
    expect(sealed).not.toContain("hello");
    expect(unseal(`${secret}!`, "two-factor-secret", sealed)).toBeNull();
    expect(unseal(secret, "two-factor-backup-codes", sealed)).toBeNull();
    // Flip one bit of the ciphertext itself (editing a base64 character may only touch padding bits).
    const [version, iv, data] = sealed.split(".");
    const bytes = Buffer.from(data, "base64url");
    bytes[0] ^= 1;
    const tampered = `${version}.${iv}.${bytes.toString("base64url")}`;
    expect(unseal(secret, "two-factor-secret", tampered)).toBeNull();
    expect(unseal(secret, "two-factor-secret", "v1.garbage")).toBeNull();
  });
});
