import { scrypt } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createPasswordHasher, testScryptCost } from "../../src/crypto/password.ts";

// The suite hashes at a lower cost (test/global-setup.ts); the product's own hasher must still be
// Better Auth's scrypt: N=16384, r=16, p=1, a 64-byte key, the salt's hex text as the salt.

const derive = (password: string, salt: string, N: number) =>
  new Promise<string>((resolve, reject) =>
    scrypt(password, salt, 64, { N, r: 16, p: 1, maxmem: 128 * N * 16 * 2 }, (error, key) =>
      error ? reject(error) : resolve(key.toString("hex")),
    ),
  );

describe("password hashing cost", () => {
  const saved = process.env.AUTHD_TEST_SCRYPT_COST;
  afterEach(() => {
    if (saved === undefined) delete process.env.AUTHD_TEST_SCRYPT_COST;
    else process.env.AUTHD_TEST_SCRYPT_COST = saved;
  });

  it("hashes at N=16384 unless told otherwise, in Better Auth's salt:key format", async () => {
    const hash = await createPasswordHasher().hash("correct horse battery");
    const [salt = "", key] = hash.split(":");
    expect(key).toBe(await derive("correct horse battery", salt, 16384));
    expect(key).not.toBe(await derive("correct horse battery", salt, 1024));
  });

  it("verifies a hash made by Better Auth's parameters", async () => {
    const salt = "0123456789abcdef0123456789abcdef";
    const stored = `${salt}:${await derive("hunter2hunter2", salt, 16384)}`;
    const hasher = createPasswordHasher();
    expect(await hasher.verify(stored, "hunter2hunter2")).toBe(true);
    expect(await hasher.verify(stored, "hunter2hunter3")).toBe(false);
  });

  it("reads the suite's cost only as a power of two up to the product's", () => {
    process.env.AUTHD_TEST_SCRYPT_COST = "1024";
    expect(testScryptCost()).toBe(1024);
    for (const bad of ["1000", "32768", "0", "abc"]) {
      process.env.AUTHD_TEST_SCRYPT_COST = bad;
      expect(() => testScryptCost()).toThrow(/power of two/);
    }
    delete process.env.AUTHD_TEST_SCRYPT_COST;
    expect(testScryptCost()).toBeNull();
  });
});
