import { createHmac } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 30-second steps, 6 digits,
// the key being the secret's ASCII bytes (as Better Auth uses it), and RFC 4648 base32 for otpauth URIs. A
// key imported from a system that keeps binary keys (Clerk) is kept as `base32:` and its base32 text.

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** The time step a moment (epoch milliseconds) falls in. */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
}

const BINARY_KEY = "base32:";

/** The HMAC key a stored TOTP secret stands for: its UTF-8 bytes, or the bytes of a `base32:` key. */
export function totpKeyBytes(key: string): Buffer {
  if (key.startsWith(BINARY_KEY)) {
    const bytes = base32Decode(key.slice(BINARY_KEY.length));
    if (bytes && bytes.length > 0) return Buffer.from(bytes);
  }
  return Buffer.from(key, "utf8");
}

/** A binary TOTP key (base32, as an authenticator app reads it) in the form authd keeps it. */
export const binaryTotpKey = (base32: string): string => `${BINARY_KEY}${base32.replace(/=+$/, "").toUpperCase()}`;

/** The HOTP value of `counter` (RFC 4226 §5.3: dynamic truncation, then modulo 10^digits). */
export function hotp(key: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", totpKeyBytes(key)).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return binary.toString().padStart(TOTP_DIGITS, "0");
}

/** The code for the step `now` falls in. */
export function totpCode(key: string, now: number): string {
  return hotp(key, totpStep(now));
}

/**
 * The step whose code `code` is, looking `window` steps either side of now (clock drift), or null. Every
 * candidate is compared in constant time, so the answer's timing does not tell which step matched.
 */
export function matchTotpStep(key: string, code: string, now: number, window = 1): number | null {
  const current = totpStep(now);
  let matched: number | null = null;
  for (let step = current - window; step <= current + window; step += 1) {
    if (constantTimeEqual(hotp(key, step), code) && matched === null) matched = step;
  }
  return matched;
}

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 back to bytes (padding and case ignored); null when a character is not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/=+$/, "").toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(bytes);
}

/** RFC 4648 base32 without padding (what authenticator apps read from an otpauth URI's secret). */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}
