import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets authd must read back (TOTP secrets, backup codes) are stored encrypted: AES-256-GCM under a key
// derived from the app secret with HKDF-SHA256, one key per purpose, so a leaked database alone reveals
// nothing and a ciphertext of one purpose cannot be passed off as another's. Format: "v1.<iv>.<data+tag>".

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "authd", `authd:${purpose}`, 32));
}

export function encryptWithSecret(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString("base64url")}.${data.toString("base64url")}`;
}

/** The plaintext, or null when the value is not ours (another secret, another purpose, tampered with). */
export function decryptWithSecret(secret: string, purpose: string, stored: string): string | null {
  const [version, ivText, dataText] = stored.split(".");
  if (version !== VERSION || !ivText || !dataText) return null;
  const iv = Buffer.from(ivText, "base64url");
  const data = Buffer.from(dataText, "base64url");
  if (iv.length !== IV_BYTES || data.length < TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(secret, purpose), iv);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
