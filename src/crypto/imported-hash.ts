// Password hashes brought from another system (issue 33), in the tagged form authd stores them in the
// credential account's password column until the user's next sign-in replaces them with authd's own scrypt.
// authd's own hashes are "saltHex:keyHex" and never start with "$"; every imported form does, so the column
// says which kind it holds. The forms are PHC strings (or the modular-crypt strings bcrypt and phpass use):
//
//   $2a$ / $2b$ / $2y$…                                  bcrypt, as written
//   $argon2id$v=19$m=65536,t=3,p=4$salt$key               argon2id / argon2i / argon2d (PHC)
//   $scrypt$ln=15,r=8,p=1$salt$key                        scrypt (PHC; ln is log2 N)
//   $better-auth-scrypt$saltHex$keyHex                    Better Auth: scrypt(NFKC(pw), saltHex as text, 2^14, 16, 1, 64)
//   $pbkdf2-sha256$i=600000$salt$key                      PBKDF2 with SHA-1, SHA-256 or SHA-512 (key length = key's)
//   $firebase-scrypt$ln=14,r=8$signer$separator$salt$key  Firebase's modified scrypt
//   $md5$hex  $sha1$hex  $P$… / $H$…                      weak legacy forms: only when imported with --allow-insecure-hashes
//
// Salts and keys are standard base64 without padding. Every parameter has a bound (HASH_BOUNDS), checked
// when a hash is imported and again before it is verified: a forged hash must not buy seconds of CPU or a
// gigabyte of memory per sign-in attempt.

export type HashKind =
  | "bcrypt"
  | "argon2id"
  | "argon2i"
  | "argon2d"
  | "scrypt"
  | "better-auth-scrypt"
  | "pbkdf2-sha1"
  | "pbkdf2-sha256"
  | "pbkdf2-sha512"
  | "firebase-scrypt"
  | "md5"
  | "sha1"
  | "phpass";

/** The kinds no one should still use: imported only when the operator says so, and reported. */
export const INSECURE_KINDS: ReadonlySet<HashKind> = new Set<HashKind>(["md5", "sha1", "phpass"]);

export type ParsedHash =
  | { kind: "bcrypt"; cost: number }
  | { kind: "argon2id" | "argon2i" | "argon2d"; memory: number; iterations: number; parallelism: number }
  | { kind: "scrypt"; log2N: number; r: number; p: number; salt: Buffer; key: Buffer }
  | { kind: "better-auth-scrypt"; saltText: string; key: Buffer }
  | { kind: "pbkdf2-sha1" | "pbkdf2-sha256" | "pbkdf2-sha512"; iterations: number; salt: Buffer; key: Buffer }
  | {
      kind: "firebase-scrypt";
      memCost: number;
      rounds: number;
      signerKey: Buffer;
      separator: Buffer;
      salt: Buffer;
      key: Buffer;
    }
  | { kind: "md5" | "sha1"; key: Buffer }
  | { kind: "phpass"; log2Rounds: number; salt: string; checksum: string };

/** A stored hash and what it was parsed into: `text` is what the password column holds. */
export type ImportedHash = ParsedHash & { text: string };

/** The documented bounds (docs/import.md). */
export const HASH_BOUNDS = {
  bcryptCost: [4, 14],
  argon2MemoryKiB: 65_536,
  argon2Iterations: 10,
  argon2Parallelism: 4,
  scryptLog2N: 17,
  scryptR: 16,
  scryptP: 4,
  pbkdf2Iterations: 2_000_000,
  firebaseRounds: [1, 8],
  firebaseMemCost: [1, 17],
  phpassLog2Rounds: [7, 16],
  bytes: 1024,
} as const;

export class HashFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HashFormatError";
  }
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function fromBase64(text: string, what: string): Buffer {
  if (!B64.test(text)) throw new HashFormatError(`${what} is not base64`);
  return Buffer.from(text, "base64");
}

export const toBase64 = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/, "");

function integer(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d{1,10}$/.test(text)) throw new HashFormatError(`${what} is not a whole number`);
  return Number(text);
}

/** "m=65536,t=3,p=4" → {m: "65536", …}; a repeated or unexpected name is refused. */
function parameters(text: string, names: string[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const pair of text.split(",")) {
    const [name, value] = pair.split("=");
    if (!names.includes(name) || found[name] !== undefined || value === undefined)
      throw new HashFormatError(`unexpected parameter "${pair}"`);
    found[name] = value;
  }
  return found;
}

const ARGON2 = /^\$(argon2id|argon2i|argon2d)\$(?:v=(\d+)\$)?([^$]+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const BCRYPT = /^\$(2[aby])\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const PHPASS = /^\$[PH]\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{22})$/;
export const PHPASS_ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function parseTagged(text: string): ParsedHash {
  const bcrypt = BCRYPT.exec(text);
  if (bcrypt) return { kind: "bcrypt", cost: Number(bcrypt[2]) };
  const argon2 = ARGON2.exec(text);
  if (argon2) {
    const [, kind, version, params, salt, key] = argon2;
    if (version !== undefined && version !== "19" && version !== "16")
      throw new HashFormatError(`unknown argon2 version ${version}`);
    const p = parameters(params, ["m", "t", "p"]);
    fromBase64(salt, "salt");
    fromBase64(key, "key");
    return {
      kind: kind as "argon2id",
      memory: integer(p.m, "m"),
      iterations: integer(p.t, "t"),
      parallelism: integer(p.p, "p"),
    };
  }
  const phpass = PHPASS.exec(text);
  if (phpass)
    return { kind: "phpass", log2Rounds: PHPASS_ALPHABET.indexOf(phpass[1]), salt: phpass[2], checksum: phpass[3] };
  const parts = text.split("$");
  const tag = parts[1];
  if (tag === "scrypt" && parts.length === 5) {
    const p = parameters(parts[2], ["ln", "r", "p"]);
    return {
      kind: "scrypt",
      log2N: integer(p.ln, "ln"),
      r: integer(p.r, "r"),
      p: integer(p.p, "p"),
      salt: fromBase64(parts[3], "salt"),
      key: fromBase64(parts[4], "key"),
    };
  }
  if (tag === "better-auth-scrypt" && parts.length === 4) {
    if (!/^[0-9a-f]{32}$/.test(parts[2]) || !/^[0-9a-f]{128}$/.test(parts[3]))
      throw new HashFormatError("a Better Auth hash is 32 hex digits of salt and 128 of key");
    return { kind: "better-auth-scrypt", saltText: parts[2], key: Buffer.from(parts[3], "hex") };
  }
  if ((tag === "pbkdf2-sha1" || tag === "pbkdf2-sha256" || tag === "pbkdf2-sha512") && parts.length === 5) {
    const p = parameters(parts[2], ["i"]);
    return {
      kind: tag,
      iterations: integer(p.i, "i"),
      salt: fromBase64(parts[3], "salt"),
      key: fromBase64(parts[4], "key"),
    };
  }
  if (tag === "firebase-scrypt" && parts.length === 7) {
    const p = parameters(parts[2], ["ln", "r"]);
    return {
      kind: "firebase-scrypt",
      memCost: integer(p.ln, "ln"),
      rounds: integer(p.r, "r"),
      signerKey: fromBase64(parts[3], "signer key"),
      separator: fromBase64(parts[4], "salt separator"),
      salt: fromBase64(parts[5], "salt"),
      key: fromBase64(parts[6], "key"),
    };
  }
  if ((tag === "md5" || tag === "sha1") && parts.length === 3) {
    const length = tag === "md5" ? 32 : 40;
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(parts[2]))
      throw new HashFormatError(`${tag} is ${length} hex digits`);
    return { kind: tag, key: Buffer.from(parts[2], "hex") };
  }
  throw new HashFormatError("not a hash form authd knows (see docs/import.md)");
}

/** What a hash's cost parameters exceed or fall short of, in words; null within the bounds. */
export function boundsProblem(hash: ParsedHash): string | null {
  const b = HASH_BOUNDS;
  const tooLong = (bytes: Buffer, what: string) =>
    bytes.length > b.bytes ? `${what} of ${bytes.length} bytes (at most ${b.bytes})` : null;
  const within = (value: number, [low, high]: readonly [number, number], what: string) =>
    value < low || value > high ? `${what} ${value} (${low} to ${high})` : null;
  switch (hash.kind) {
    case "bcrypt":
      return within(hash.cost, b.bcryptCost, "bcrypt cost");
    case "argon2id":
    case "argon2i":
    case "argon2d":
      return (
        within(hash.memory, [8, b.argon2MemoryKiB], "argon2 memory (KiB)") ??
        within(hash.iterations, [1, b.argon2Iterations], "argon2 iterations") ??
        within(hash.parallelism, [1, b.argon2Parallelism], "argon2 parallelism")
      );
    case "scrypt":
      return (
        within(hash.log2N, [1, b.scryptLog2N], "scrypt log2 N") ??
        within(hash.r, [1, b.scryptR], "scrypt r") ??
        within(hash.p, [1, b.scryptP], "scrypt p") ??
        tooLong(hash.salt, "salt") ??
        (hash.key.length === 0 ? "an empty key" : tooLong(hash.key, "key"))
      );
    case "pbkdf2-sha1":
    case "pbkdf2-sha256":
    case "pbkdf2-sha512": {
      // A key longer than the digest costs one run of every iteration per block: bound the product.
      const digestBytes = { "pbkdf2-sha1": 20, "pbkdf2-sha256": 32, "pbkdf2-sha512": 64 }[hash.kind];
      const runs = hash.iterations * Math.ceil(hash.key.length / digestBytes);
      return (
        within(hash.iterations, [1, b.pbkdf2Iterations], "PBKDF2 iterations") ??
        tooLong(hash.salt, "salt") ??
        (hash.key.length === 0 ? "an empty key" : tooLong(hash.key, "key")) ??
        (runs > b.pbkdf2Iterations ? `PBKDF2 iterations × key blocks ${runs} (at most ${b.pbkdf2Iterations})` : null)
      );
    }
    case "firebase-scrypt":
      return (
        within(hash.rounds, b.firebaseRounds, "Firebase rounds") ??
        within(hash.memCost, b.firebaseMemCost, "Firebase memory cost") ??
        tooLong(hash.signerKey, "signer key") ??
        tooLong(hash.separator, "salt separator") ??
        tooLong(hash.salt, "salt") ??
        (hash.key.length === 0 ? "an empty key" : tooLong(hash.key, "key"))
      );
    case "phpass":
      return within(hash.log2Rounds, b.phpassLog2Rounds, "phpass log2 rounds");
    default:
      return null;
  }
}

/** Whether a stored password is an imported hash (authd's own never starts with "$"). */
export function isImportedHash(stored: string): boolean {
  return stored.startsWith("$");
}

/** Parse a tagged hash and check its bounds; throws HashFormatError naming what is wrong. */
export function parseImportedHash(text: string): ImportedHash {
  if (text.length > 4 * HASH_BOUNDS.bytes) throw new HashFormatError("longer than any hash authd accepts");
  const parsed = parseTagged(text);
  const problem = boundsProblem(parsed);
  if (problem) throw new HashFormatError(`out of bounds: ${problem}`);
  return { ...parsed, text };
}

/**
 * A hash of the same kind and cost as `hash` that no password matches (random salt and key, same lengths):
 * what an unknown account's sign-in is timed against, so that it takes as long as an imported account's.
 */
export function dummyLike(hash: ImportedHash, random: (length: number) => Buffer): string {
  if (hash.kind === "bcrypt" || hash.kind === "phpass") {
    const alphabet =
      hash.kind === "bcrypt" ? "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" : PHPASS_ALPHABET;
    const keep = hash.kind === "bcrypt" ? 7 : 4;
    const tail = [...random(hash.text.length - keep)].map((byte) => alphabet[byte % 64]);
    // bcrypt's 22-character salt and 31-character key carry 4 and 2 bits more than their bytes: a character
    // with those bits set is no bcrypt hash at all, and checking against it fails at once instead of taking
    // the hash's cost. Clear them, so the dummy costs what the real hash does.
    if (hash.kind === "bcrypt" && tail.length === 53) {
      tail[21] = alphabet[alphabet.indexOf(tail[21]) & 0b110000];
      tail[52] = alphabet[alphabet.indexOf(tail[52]) & 0b111100];
    }
    return hash.text.slice(0, keep) + tail.join("");
  }
  if (hash.kind === "md5" || hash.kind === "sha1") return `$${hash.kind}$${random(hash.key.length).toString("hex")}`;
  const parts = hash.text.split("$");
  // The last two fields are salt and key in every PHC-like form here (hex in Better Auth's, base64 elsewhere).
  const fresh = (field: string) =>
    hash.kind === "better-auth-scrypt"
      ? random(field.length / 2).toString("hex")
      : toBase64(random(fromBase64(field, "field").length));
  parts[parts.length - 2] = fresh(parts[parts.length - 2]);
  parts[parts.length - 1] = fresh(parts[parts.length - 1]);
  return parts.join("$");
}
