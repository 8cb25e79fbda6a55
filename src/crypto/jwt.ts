import { jwtVerify, SignJWT, errors as joseErrors, createRemoteJWKSet, decodeJwt, type JWTPayload } from "jose";

// The only module that imports jose.

export type VerifyResult<T> = { ok: true; payload: T & JWTPayload } | { ok: false; reason: "expired" | "invalid" };

export async function signHS256(secret: string, payload: Record<string, unknown>, expiresInSeconds: number): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(secret));
}

export async function verifyHS256<T extends Record<string, unknown>>(secret: string, token: string): Promise<VerifyResult<T>> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ["HS256"] });
    return { ok: true, payload: payload as T & JWTPayload };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
  }
}

const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** Verify an ID token against a provider's JWKS (cached per URL), issuer and audience. */
export async function verifyIdToken(
  token: string,
  options: { jwksURI: string; issuer?: string | string[]; audience: string | string[]; timeoutMs?: number },
): Promise<JWTPayload | null> {
  let keySet = remoteKeySets.get(options.jwksURI);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(options.jwksURI), { timeoutDuration: options.timeoutMs ?? 10_000 });
    remoteKeySets.set(options.jwksURI, keySet);
  }
  try {
    const { payload } = await jwtVerify(token, keySet, { issuer: options.issuer, audience: options.audience });
    return payload;
  } catch {
    return null;
  }
}

/** Read claims without verifying (only for tokens received directly from a provider over TLS). */
export function decodeClaims(token: string): JWTPayload | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}
