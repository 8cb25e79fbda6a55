import { constantTimeEqual } from "./random.ts";

// Every signed cookie is checked on every request. A keyed hasher is made once per secret (a process has
// one or two) and copied for each signature: a third of the cost of node:crypto's createHmac with the key.
const hashers = new Map<string, Bun.CryptoHasher>();
function hmacSha256(secret: string, value: string): Bun.CryptoHasher {
  let base = hashers.get(secret);
  if (!base) {
    if (hashers.size >= 16) hashers.clear();
    base = new Bun.CryptoHasher("sha256", secret);
    hashers.set(secret, base);
  }
  return base.copy().update(value);
}

export function hmacSha256Base64(secret: string, value: string): string {
  return hmacSha256(secret, value).digest("base64");
}

export function hmacSha256Base64Url(secret: string, value: string): string {
  return hmacSha256(secret, value).digest("base64url");
}

/** "value.signature" with a 44-character base64 HMAC-SHA256, the signed-cookie format Better Auth writes. */
export function signValue(secret: string, value: string): string {
  return `${value}.${hmacSha256Base64(secret, value)}`;
}

/** The value of a signed "value.signature" string, or null when the signature does not match. */
export function unsignValue(secret: string, signed: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44) return null;
  return constantTimeEqual(signature, hmacSha256Base64(secret, value)) ? value : null;
}

/** The value of a signed string under any of `secrets` (the current one first), or null when none matches. */
export function unsignWithAny(secrets: readonly string[], signed: string): string | null {
  for (const secret of secrets) {
    const value = unsignValue(secret, signed);
    if (value !== null) return value;
  }
  return null;
}

/** Whether `stored` is the keyed hash of `value` under any of `secrets`; each compared in constant time. */
export function matchesKeyedHash(secrets: readonly string[], value: string, stored: string): boolean {
  return secrets.some((secret) => constantTimeEqual(hmacSha256Base64Url(secret, value), stored));
}
