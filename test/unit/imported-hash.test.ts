import { describe, expect, it } from "vitest";
import { dummyLike, HashFormatError, parseImportedHash } from "../../src/crypto/imported-hash.ts";
import { fromFirebase, fromKeycloak, normalizeHash } from "../../src/crypto/imported-hash-forms.ts";
import { verifyImportedHash } from "../../src/crypto/imported-hash-verify.ts";
import {
  argon2Hash,
  aspNetIdentityHash,
  bcryptHash,
  betterAuthHash,
  djangoPbkdf2,
  FIREBASE_VECTOR,
  keycloakCredential,
  md5Hex,
  PHPASS_VECTOR,
  scryptPhc,
  sha1Hex,
} from "../helpers/foreign-hashes.ts";

const PASSWORD = "Imported pässword 1";

async function expectVerifies(text: string, kind: string, password = PASSWORD) {
  const hash = normalizeHash(text);
  expect(hash.kind).toBe(kind);
  expect(hash.text.startsWith("$"), hash.text).toBe(true);
  expect(await verifyImportedHash(hash.text, password)).toBe(true);
  expect(await verifyImportedHash(hash.text, `${password}x`)).toBe(false);
}

describe("imported password hashes", () => {
  it("verifies bcrypt in each of its variants", async () => {
    for (const variant of ["2a", "2b", "2y"] as const) await expectVerifies(bcryptHash(PASSWORD, 4, variant), "bcrypt");
  });

  it("bcrypt keeps its 72-byte rule: a longer password verifies by its first 72 bytes, as its source did", async () => {
    const long = "é".repeat(40); // 80 bytes; the source hashed the first 72
    const made = Bun.password.hashSync(Buffer.from(long).subarray(0, 72), { algorithm: "bcrypt", cost: 4 });
    expect(normalizeHash(made).kind).toBe("bcrypt");
    expect(await verifyImportedHash(made, long)).toBe(true);
    expect(await verifyImportedHash(made, "é".repeat(35))).toBe(false);
  });

  it("verifies argon2id, argon2i and argon2d (PHC)", async () => {
    for (const kind of ["argon2id", "argon2i", "argon2d"] as const)
      await expectVerifies(argon2Hash(PASSWORD, kind), kind);
  });

  it("verifies scrypt (PHC) and Better Auth's salt:hash", async () => {
    await expectVerifies(scryptPhc(PASSWORD), "scrypt");
    await expectVerifies(await betterAuthHash(PASSWORD), "better-auth-scrypt");
  });

  it("verifies PBKDF2 from Django, Keycloak and ASP.NET Identity v2 and v3", async () => {
    for (const digest of ["sha1", "sha256", "sha512"] as const)
      await expectVerifies(djangoPbkdf2(PASSWORD, digest), `pbkdf2-${digest}`);
    for (const algorithm of ["pbkdf2", "pbkdf2-sha256", "pbkdf2-sha512"]) {
      const credential = keycloakCredential(PASSWORD, algorithm);
      const secret = JSON.parse(credential.secretData);
      const data = JSON.parse(credential.credentialData);
      const text = fromKeycloak({ ...secret, ...data });
      await expectVerifies(text, algorithm === "pbkdf2" ? "pbkdf2-sha1" : algorithm);
    }
    const v2 = normalizeHash(aspNetIdentityHash(PASSWORD, 2), "aspnet-identity");
    expect(await verifyImportedHash(v2.text, PASSWORD)).toBe(true);
    const v3 = normalizeHash(aspNetIdentityHash(PASSWORD, 3), "aspnet-identity");
    expect(v3.kind).toBe("pbkdf2-sha256");
    expect(await verifyImportedHash(v3.text, PASSWORD)).toBe(true);
    expect(await verifyImportedHash(v3.text, "wrong")).toBe(false);
  });

  it("verifies Firebase's modified scrypt with its documented test vector", async () => {
    const { config, salt, hash, password } = FIREBASE_VECTOR;
    const text = fromFirebase(config, salt, hash);
    await expectVerifies(text, "firebase-scrypt", password);
  });

  it("verifies the weak legacy forms (MD5, SHA-1, phpass)", async () => {
    await expectVerifies(normalizeHash(md5Hex(PASSWORD), "md5").text, "md5");
    await expectVerifies(normalizeHash(sha1Hex(PASSWORD), "sha1").text, "sha1");
    await expectVerifies(PHPASS_VECTOR.hash, "phpass", PHPASS_VECTOR.password);
  });

  it("refuses absurd cost parameters when parsing, and before verifying, without spending them", async () => {
    const huge = [
      "$argon2id$v=19$m=1048576,t=3,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
      "$argon2id$v=19$m=65536,t=100,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
      "$argon2i$v=19$m=4096,t=3,p=64$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
      `$2b$31$${"a".repeat(53)}`,
      "$scrypt$ln=20,r=8,p=1$c2FsdA$a2V5",
      "$scrypt$ln=14,r=1024,p=1$c2FsdA$a2V5",
      "$pbkdf2-sha256$i=100000000$c2FsdA$a2V5",
      `$pbkdf2-sha1$i=1000000$c2FsdA$${Buffer.alloc(1000).toString("base64")}`,
      `$firebase-scrypt$ln=30,r=8$a2V5$Bw$c2FsdA$a2V5`,
      `$scrypt$ln=10,r=8,p=1$${Buffer.alloc(4096).toString("base64")}$a2V5`,
      "$P$Ixxxxxxxxaaaaaaaaaaaaaaaaaaaaaa",
    ];
    for (const text of huge) {
      expect(() => parseImportedHash(text), text).toThrow(HashFormatError);
      expect(await verifyImportedHash(text, "whatever")).toBe(false);
    }
    // A correct hash made with a cost past the bounds is refused too: the bound, not a mismatch, says no.
    const tooManyPasses = Bun.password.hashSync(PASSWORD, { algorithm: "argon2id", memoryCost: 1024, timeCost: 11 });
    expect(await verifyImportedHash(tooManyPasses, PASSWORD)).toBe(false);
    expect(await verifyImportedHash(tooManyPasses.replace("t=11", "t=10"), PASSWORD)).toBe(false);
    expect(await verifyImportedHash(argon2Hash(PASSWORD), PASSWORD)).toBe(true);
  });

  it("names what is wrong with a malformed hash", () => {
    expect(() => normalizeHash("plain-text-password")).toThrow(/not a hash form/);
    expect(() => normalizeHash("$argon2id$v=19$m=1048576,t=3,p=1$c2FsdA$a2V5")).toThrow(/argon2 memory/);
    expect(() => normalizeHash(bcryptHash(PASSWORD), "argon2")).toThrow(/bcrypt hash, not argon2/);
  });
});

describe("the dummy an unknown account is timed against", () => {
  const ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  it("is a well-formed bcrypt hash of the same cost (its salt's and key's spare bits clear), whatever the random bytes", () => {
    const real = parseImportedHash(Bun.password.hashSync("pw", { algorithm: "bcrypt", cost: 4 }));
    for (const fill of [0x00, 0xff, 0x3f, 0x0f]) {
      const dummy = dummyLike(real, (n) => Buffer.alloc(n, fill));
      expect(dummy.slice(0, 7)).toBe(real.text.slice(0, 7));
      expect(dummy).toHaveLength(60);
      // 22 salt characters carry 128 bits (4 spare), 31 key characters 184 (2 spare): those bits are zero.
      expect(ALPHABET.indexOf(dummy[28]) % 16).toBe(0);
      expect(ALPHABET.indexOf(dummy[59]) % 4).toBe(0);
    }
  });
});
