import { createCipheriv, createHash, pbkdf2, scrypt, timingSafeEqual } from "node:crypto";
import { type ImportedHash, PHPASS_ALPHABET, parseImportedHash } from "./imported-hash.ts";

// Checking a password against an imported hash, as the system that made it did. Every slow derivation
// runs off the event loop: Bun.password (bcrypt, argon2) and node:crypto's callback scrypt and pbkdf2 use
// the thread pool; phpass's iterated MD5 yields to the loop between slices. The hash is parsed again and its
// bounds checked before any work: the column may have been written by hand, or by an older authd.

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

function scryptKey(
  password: Buffer,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number },
): Promise<Buffer> {
  const maxmem = 128 * options.N * options.r * options.p + 128 * options.r * options.p + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function pbkdf2Key(
  password: Buffer,
  salt: Buffer,
  iterations: number,
  length: number,
  digest: string,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    pbkdf2(password, salt, iterations, length, digest, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * bcrypt reads at most 72 bytes of a password; the systems authd imports from (Auth0, Supabase, Laravel,
 * Django, Devise) truncated there. Bun.password instead pre-hashes a longer one, so it is cut to 72 bytes here.
 */
const bcryptInput = (password: string) => Buffer.from(password, "utf8").subarray(0, 72);

/** phpass's base64 of its 16-byte MD5 checksum (its own alphabet and bit order). */
function phpassEncode(bytes: Buffer): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    let value = bytes[i++];
    out += PHPASS_ALPHABET[value & 0x3f];
    if (i < bytes.length) value |= bytes[i] << 8;
    out += PHPASS_ALPHABET[(value >> 6) & 0x3f];
    if (i++ >= bytes.length) break;
    if (i < bytes.length) value |= bytes[i] << 16;
    out += PHPASS_ALPHABET[(value >> 12) & 0x3f];
    if (i++ >= bytes.length) break;
    out += PHPASS_ALPHABET[(value >> 18) & 0x3f];
  }
  return out;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function phpassChecksum(password: Buffer, salt: string, log2Rounds: number): Promise<string> {
  let digest = createHash("md5").update(salt).update(password).digest();
  for (let round = 1; round <= 2 ** log2Rounds; round++) {
    digest = createHash("md5").update(digest).update(password).digest();
    if (round % 2048 === 0) await yieldToLoop();
  }
  return phpassEncode(digest).slice(0, 22);
}

async function firebaseKey(password: Buffer, hash: Extract<ImportedHash, { kind: "firebase-scrypt" }>) {
  const derived = await scryptKey(password, Buffer.concat([hash.salt, hash.separator]), 32, {
    N: 2 ** hash.memCost,
    r: hash.rounds,
    p: 1,
  });
  const cipher = createCipheriv("aes-256-ctr", derived, Buffer.alloc(16));
  return Buffer.concat([cipher.update(hash.signerKey), cipher.final()]);
}

async function matches(hash: ImportedHash, password: string): Promise<boolean> {
  const bytes = Buffer.from(password, "utf8");
  switch (hash.kind) {
    case "bcrypt":
      return Bun.password.verify(bcryptInput(password), hash.text);
    case "argon2id":
    case "argon2i":
    case "argon2d":
      return Bun.password.verify(password, hash.text);
    case "scrypt": {
      const options = { N: 2 ** hash.log2N, r: hash.r, p: hash.p };
      return sameBytes(await scryptKey(bytes, hash.salt, hash.key.length, options), hash.key);
    }
    case "better-auth-scrypt": {
      const normalized = Buffer.from(password.normalize("NFKC"), "utf8");
      const options = { N: 16384, r: 16, p: 1 };
      return sameBytes(await scryptKey(normalized, Buffer.from(hash.saltText), 64, options), hash.key);
    }
    case "pbkdf2-sha1":
    case "pbkdf2-sha256":
    case "pbkdf2-sha512": {
      const digest = hash.kind.slice("pbkdf2-".length);
      return sameBytes(await pbkdf2Key(bytes, hash.salt, hash.iterations, hash.key.length, digest), hash.key);
    }
    case "firebase-scrypt":
      return sameBytes(await firebaseKey(bytes, hash), hash.key);
    case "md5":
    case "sha1":
      return sameBytes(createHash(hash.kind).update(bytes).digest(), hash.key);
    case "phpass": {
      const checksum = await phpassChecksum(bytes, hash.salt, hash.log2Rounds);
      return sameBytes(Buffer.from(checksum), Buffer.from(hash.checksum));
    }
  }
}

/** Whether `password` is the one an imported hash was made from; false for a malformed or out-of-bounds hash. */
export async function verifyImportedHash(stored: string, password: string): Promise<boolean> {
  let hash: ImportedHash;
  try {
    hash = parseImportedHash(stored);
  } catch {
    return false;
  }
  try {
    return await matches(hash, password);
  } catch {
    // A hash Bun.password or node:crypto cannot read is a refusal, not an error page.
    return false;
  }
}
