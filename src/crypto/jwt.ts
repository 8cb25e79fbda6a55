import {
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from "jose";

// The only module that imports jose.

// jose checks exp only when present: a token without one would never expire. Every token authd checks
// (its own verification tokens, providers' ID tokens) must carry both an expiry and an issue time.
const REQUIRED_CLAIMS = ["exp", "iat"];

export type VerifyResult<T> = { ok: true; payload: T & JWTPayload } | { ok: false; reason: "expired" | "invalid" };

export async function signHS256(
  secret: string,
  payload: Record<string, unknown>,
  expiresInSeconds: number,
): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(secret));
}

export async function verifyHS256<T extends Record<string, unknown>>(
  secret: string,
  token: string,
): Promise<VerifyResult<T>> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ["HS256"],
      requiredClaims: REQUIRED_CLAIMS,
    });
    return { ok: true, payload: payload as T & JWTPayload };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
  }
}

/** Remote key sets by JWKS URL; the caller keeps it (one per context). */
export type JWKSCache = Map<string, ReturnType<typeof createRemoteJWKSet>>;

/** Verify an ID token against a provider's JWKS (kept in `keySets` per URL), issuer and audience. */
export async function verifyIdToken(
  token: string,
  options: { jwksURI: string; issuer?: string | string[]; audience: string | string[]; timeoutMs?: number },
  keySets: JWKSCache,
): Promise<JWTPayload | null> {
  let keySet = keySets.get(options.jwksURI);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(options.jwksURI), { timeoutDuration: options.timeoutMs ?? 10_000 });
    keySets.set(options.jwksURI, keySet);
  }
  try {
    const { payload } = await jwtVerify(token, keySet, {
      issuer: options.issuer,
      audience: options.audience,
      requiredClaims: REQUIRED_CLAIMS,
    });
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

// authd's own signed tokens (GET /token, set-auth-jwt): asymmetric keys whose public half is published.

export type SigningAlgorithm = "EdDSA" | "ES256" | "RS256";
export type { JWK };

/** A private key ready to sign (imported once, kept by the caller). */
export type PrivateSigningKey = Awaited<ReturnType<typeof importJWK>>;

/** A fresh key pair as JWKs (EdDSA: Ed25519, ES256: P-256, RS256: 2048-bit RSA). */
export async function generateSigningKeyPair(alg: SigningAlgorithm): Promise<{ publicJWK: JWK; privateJWK: JWK }> {
  const options = alg === "EdDSA" ? { extractable: true, crv: "Ed25519" } : { extractable: true };
  const { publicKey, privateKey } = await generateKeyPair(alg, options);
  return { publicJWK: await exportJWK(publicKey), privateJWK: await exportJWK(privateKey) };
}

export function importPrivateJWK(jwk: JWK, alg: SigningAlgorithm): Promise<PrivateSigningKey> {
  return importJWK(jwk, alg);
}

export interface SignOptions {
  alg: SigningAlgorithm;
  kid: string;
  issuer: string;
  audience: string | string[];
  subject: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresInSeconds: number;
  /** A typ header where a token's kind must be told apart (a back-channel logout token: logout+jwt). */
  typ?: string;
}

/** A JWT with the protected header {alg, kid} (no typ unless asked, as Better Auth signs). */
export function signJWT(
  key: PrivateSigningKey,
  payload: Record<string, unknown>,
  options: SignOptions,
): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader(
      options.typ ? { alg: options.alg, kid: options.kid, typ: options.typ } : { alg: options.alg, kid: options.kid },
    )
    .setIssuedAt(options.issuedAt)
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(options.subject)
    .setExpirationTime(options.issuedAt + options.expiresInSeconds)
    .sign(key);
}

/**
 * The claims of a token signed by one of `keys` (authd's own published keys), expired or not: an
 * id_token_hint names who is signing out, and is often old. Only asymmetric algorithms are accepted, so
 * neither `alg: none` nor an HMAC keyed with a public key passes.
 */
export async function verifyOwnSignature(token: string, keys: JWK[]): Promise<JWTPayload | null> {
  try {
    const { payload } = await compactVerify(token, createLocalJWKSet({ keys }), {
      algorithms: ["RS256", "ES256", "EdDSA"],
    });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
    return typeof claims === "object" && claims !== null ? (claims as JWTPayload) : null;
  } catch {
    return null;
  }
}
