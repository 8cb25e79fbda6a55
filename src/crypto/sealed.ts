import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets authd must be able to read back (JWT private keys), kept at rest encrypted with AES-256-GCM
// under a key derived from the app secret with HKDF-SHA256. Each purpose derives its own key, so a value
// sealed for one use cannot be passed off as another's. A copy of the database alone reveals nothing; with
// the secret (which may itself live in that database when AUTH_SECRET is unset) it reveals everything.

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "authd sealed values", `authd:${purpose}`, 32));
}

/** `v1.<base64url(iv | ciphertext | tag)>`: authenticated, so a changed byte fails to open. */
export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
}

/** The plaintext of a sealed value, or null when it was sealed under another secret or purpose, or altered. */
export function unseal(secret: string, purpose: string, sealed: string): string | null {
  const [version, encoded] = sealed.split(".");
  if (version !== VERSION || !encoded) return null;
  const bytes = Buffer.from(encoded, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", derivedKey(secret, purpose), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
