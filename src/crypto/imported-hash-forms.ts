import { fromBase64, HashFormatError, type ImportedHash, parseImportedHash, toBase64 } from "./imported-hash.ts";

// Other systems' ways of writing a password hash, turned into the tagged form authd stores
// (imported-hash.ts). Nothing is recomputed: the same salt, key and parameters, written differently.

/** The forms `--hash-format` names; `auto` recognises tagged strings, Django's and Better Auth's. */
export const HASH_FORMATS = [
  "auto",
  "bcrypt",
  "argon2",
  "phc",
  "django",
  "aspnet-identity",
  "better-auth",
  "md5",
  "sha1",
  "phpass",
] as const;
export type HashFormat = (typeof HASH_FORMATS)[number];

const DJANGO_PBKDF2 = /^pbkdf2_(sha1|sha256|sha512)\$(\d{1,10})\$([^$]{1,1024})\$([A-Za-z0-9+/]+={0,2})$/;

/** Django's `pbkdf2_sha256$iterations$salt$key` (the salt is text, used as its UTF-8 bytes), `argon2$…`, `bcrypt$…`. */
function fromDjango(text: string): string {
  const pbkdf2 = DJANGO_PBKDF2.exec(text);
  if (pbkdf2) {
    const [, digest, iterations, salt, key] = pbkdf2;
    return `$pbkdf2-${digest}$i=${iterations}$${toBase64(Buffer.from(salt, "utf8"))}$${toBase64(fromBase64(key, "key"))}`;
  }
  if (text.startsWith("argon2$argon2")) return text.slice("argon2".length);
  if (text.startsWith("bcrypt$$2")) return text.slice("bcrypt$".length);
  throw new HashFormatError("not a Django hash authd knows (pbkdf2_sha1/sha256/sha512, argon2, bcrypt)");
}

const ASPNET_PRF = ["sha1", "sha256", "sha512"] as const;

/**
 * ASP.NET Core Identity's base64 blob: version 2 is 0x00, a 16-byte salt and a 32-byte PBKDF2-SHA1 key of
 * 1,000 iterations; version 3 is 0x01, then the PRF, the iterations and the salt's length (32-bit big-endian
 * each), the salt and the key.
 */
function fromAspNetIdentity(text: string): string {
  const blob = fromBase64(text, "ASP.NET Identity hash");
  if (blob[0] === 0x00 && blob.length === 49)
    return `$pbkdf2-sha1$i=1000$${toBase64(blob.subarray(1, 17))}$${toBase64(blob.subarray(17))}`;
  if (blob[0] === 0x01 && blob.length >= 13) {
    const prf = ASPNET_PRF[blob.readUInt32BE(1)];
    const iterations = blob.readUInt32BE(5);
    const saltLength = blob.readUInt32BE(9);
    if (!prf || saltLength < 1 || 13 + saltLength >= blob.length)
      throw new HashFormatError("a malformed ASP.NET Identity version 3 hash");
    const salt = blob.subarray(13, 13 + saltLength);
    return `$pbkdf2-${prf}$i=${iterations}$${toBase64(salt)}$${toBase64(blob.subarray(13 + saltLength))}`;
  }
  throw new HashFormatError("not an ASP.NET Identity version 2 or 3 hash");
}

/** Better Auth's `saltHex:keyHex`. */
export function fromBetterAuth(text: string): string {
  const [salt, key, rest] = text.split(":");
  if (rest !== undefined || !salt || !key) throw new HashFormatError("a Better Auth hash is saltHex:keyHex");
  return `$better-auth-scrypt$${salt}$${key}`;
}

/** Keycloak's password credential: secretData {value, salt} and credentialData {hashIterations, algorithm, …}. */
export interface KeycloakCredential {
  value: string;
  salt: string;
  algorithm: string;
  hashIterations: number;
  additionalParameters?: Record<string, string[] | undefined>;
}

export function fromKeycloak(credential: KeycloakCredential): string {
  const salt = toBase64(fromBase64(credential.salt, "salt"));
  const key = toBase64(fromBase64(credential.value, "value"));
  const digest = { pbkdf2: "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" }[credential.algorithm];
  if (digest) return `$pbkdf2-${digest}$i=${credential.hashIterations}$${salt}$${key}`;
  if (credential.algorithm === "argon2") {
    const first = (name: string) => credential.additionalParameters?.[name]?.[0];
    const type = first("type") ?? "id";
    const version = first("version") === "1.0" ? 16 : 19;
    const params = `m=${first("memory") ?? 7168},t=${credential.hashIterations},p=${first("parallelism") ?? 1}`;
    return `$argon2${type}$v=${version}$${params}$${salt}$${key}`;
  }
  throw new HashFormatError(`Keycloak algorithm ${credential.algorithm} is not one authd verifies`);
}

/** Firebase's project-wide hash configuration (Authentication → Users → Password hash parameters). */
export interface FirebaseHashConfig {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

export function fromFirebase(config: FirebaseHashConfig, salt: string, hash: string): string {
  const parts = [config.signerKey, config.saltSeparator, salt, hash].map((part) => toBase64(fromBase64(part, "value")));
  return `$firebase-scrypt$ln=${config.memCost},r=${config.rounds}$${parts.join("$")}`;
}

/** Turn a hash written in `format` into authd's tagged form, parsed and within the bounds (or throw HashFormatError). */
export function normalizeHash(text: string, format: HashFormat = "auto"): ImportedHash {
  const value = text.trim();
  switch (format) {
    case "django":
      return parseImportedHash(fromDjango(value));
    case "aspnet-identity":
      return parseImportedHash(fromAspNetIdentity(value));
    case "better-auth":
      return parseImportedHash(fromBetterAuth(value));
    case "md5":
    case "sha1":
      return parseImportedHash(value.startsWith("$") ? value : `$${format}$${value}`);
    case "auto":
      if (DJANGO_PBKDF2.test(value) || value.startsWith("argon2$") || value.startsWith("bcrypt$"))
        return parseImportedHash(fromDjango(value));
      if (/^[0-9a-f]{32}:[0-9a-f]{128}$/.test(value)) return parseImportedHash(fromBetterAuth(value));
      return parseImportedHash(value);
    default: {
      const hash = parseImportedHash(value);
      const expected: Record<string, string[]> = {
        bcrypt: ["bcrypt"],
        argon2: ["argon2id", "argon2i", "argon2d"],
        phpass: ["phpass"],
      };
      if (expected[format] && !expected[format].includes(hash.kind))
        throw new HashFormatError(`a ${hash.kind} hash, not ${format}`);
      return hash;
    }
  }
}
