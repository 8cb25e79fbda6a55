import { randomBytes, timingSafeEqual } from "node:crypto";

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

/** Compare secrets in constant time: an early exit would leak how much of a guess was right. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

// Bun's one-shot SHA-256: a third of node:crypto's createHash for the short values hashed on every request
// (session tokens, API keys); the same digest.
export function sha256Base64Url(value: string): string {
  return Bun.SHA256.hash(value, "base64url");
}
