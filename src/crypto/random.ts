import { randomBytes } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Uniformly random characters from `alphabet` (rejection sampling: no modulo bias). */
export function generateRandomString(length: number, alphabet: string = ALPHANUMERIC): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const bytes = randomBytes(Math.max(16, (length - out.length) * 2));
    for (const byte of bytes) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Ids are 32 alphanumeric characters, as the spec's default generated id. */
export function generateId(): string {
  return generateRandomString(32);
}

/**
 * Compare secrets in constant time: an early exit would leak how much of a guess was right. Every UTF-16
 * code unit of `a` is compared (OR of XORs, no branch on the data), so the time depends on the length only;
 * the same answer as comparing the UTF-8 bytes, without copying both strings into buffers on every call
 * (that copy was 6 % of an API key verification's CPU).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const other = a.length === b.length ? b : a;
  let difference = a.length ^ b.length;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ other.charCodeAt(index);
  return difference === 0;
}

// Bun's one-shot SHA-256: a third of node:crypto's createHash for the short values hashed on every request
// (session tokens, API keys); the same digest.
export function sha256Base64Url(value: string): string {
  return Bun.SHA256.hash(value, "base64url");
}
