import { createHmac } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

export function hmacSha256Base64(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("base64");
}

export function hmacSha256Base64Url(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("base64url");
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
