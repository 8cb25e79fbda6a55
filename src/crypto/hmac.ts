import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

// Every signed cookie is checked on every request: the secret's key object is made once (a process has one
// or two secrets), which halves the cost of an HMAC against passing the string each time.
const keys = new Map<string, KeyObject>();
function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 16) keys.clear();
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}

export function hmacSha256Base64(secret: string, value: string): string {
  return createHmac("sha256", keyFor(secret)).update(value).digest("base64");
}

export function hmacSha256Base64Url(secret: string, value: string): string {
  return createHmac("sha256", keyFor(secret)).update(value).digest("base64url");
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
