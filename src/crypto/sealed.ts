import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Values authd must be able to read back (TOTP secrets and backup codes, JWT private keys, the copy of a live
// email code the server call reads) are kept at rest with AES-256-GCM under a key derived from the app secret
// with HKDF-SHA256. Each purpose derives its own key, so a value sealed for one use cannot be passed off as
// another's. A copy of the database alone reveals nothing; with the secret (which may itself live in that
// database when AUTH_SECRET is unset) it reveals everything. Format: "v1.<iv>.<ciphertext+tag>", base64url.

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "authd", `authd:${purpose}`, 32));
}

export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString("base64url")}.${data.toString("base64url")}`;
}

/** The plaintext, or null when the value is not ours (another secret, another purpose, altered, truncated). */
export function unseal(secret: string, purpose: string, sealed: string): string | null {
  const [version, ivText, dataText] = sealed.split(".");
  if (version !== VERSION || !ivText || !dataText) return null;
  const iv = Buffer.from(ivText, "base64url");
  const data = Buffer.from(dataText, "base64url");
  if (iv.length !== IV_BYTES || data.length < TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", derivedKey(secret, purpose), iv);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}

export interface Unsealed {
  plaintext: string;
  /** Sealed under a secret other than the first (current) one: seal it again. */
  stale: boolean;
}

/** Unseal under any of `secrets`, the current one first; null when none opens it. */
export function unsealWithAny(secrets: readonly string[], purpose: string, sealed: string): Unsealed | null {
  for (const [index, secret] of secrets.entries()) {
    const plaintext = unseal(secret, purpose, sealed);
    if (plaintext !== null) return { plaintext, stale: index > 0 };
  }
  return null;
}
