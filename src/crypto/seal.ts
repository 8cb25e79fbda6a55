import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Authenticated encryption (AES-256-GCM) under a key derived from the daemon's secret and a purpose, for
// the few values authd must be able to read back. Sealed text is base64url: IV (12 bytes), tag (16), data.

const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyFor(secret: string, purpose: string): Buffer {
  return createHash("sha256").update(`authd-seal\0${purpose}\0${secret}`).digest();
}

export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
}

/** The plaintext, or null when the text was not sealed with this secret and purpose (or was altered). */
export function unseal(secret: string, purpose: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(secret, purpose), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
