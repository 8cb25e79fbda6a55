import type { AuthContext } from "../../context.ts";
import {
  generateSigningKeyPair,
  importPrivateJWK,
  type JWK,
  type PrivateSigningKey,
  type SigningAlgorithm,
} from "../../crypto/jwt.ts";
import { generateId } from "../../crypto/random.ts";
import { seal, unsealWithAny } from "../../crypto/sealed.ts";
import { deleteExpiredJwks, insertJwk, listPublishedJwks, retireJwks } from "../../db/repositories/jwks.ts";
import type { JwkRow } from "../../db/schema.ts";
import { perContext } from "../../platform/per-context.ts";
import { inTransaction } from "../../platform/transaction.ts";
import type { PublicJWK } from "../../wire/jwks.ts";

// The keys that sign authd's JWTs. One key per algorithm in use is current (no expiresAt) and signs: the
// configured jwt.algorithm's, and with the OpenID Provider on also RS256 (ID tokens' default), ES256 and
// EdDSA (per client, made on first use). `authd keys rotate` makes new ones current and retires the old
// ones, as does a change of the configured algorithm for the key it replaces; retired keys stay in the
// JWKS until every token they can have signed has expired. The private half is stored sealed under the
// app secret. Each process keeps the current key in memory and reads the table again after
// KEY_CACHE_MS, so a rotation by another process (the CLI) reaches a running daemon within that time.

export const SEALED_PURPOSE = "jwks-private-key";
export const KEY_CACHE_MS = 60_000;
/** Clock skew allowed to verifiers, on top of a token's lifetime, before a retired key is unpublished. */
const SKEW_MS = 60_000;

export interface SigningKey {
  id: string;
  alg: SigningAlgorithm;
  privateKey: PrivateSigningKey;
}

/** Public parameters per key type; anything else in a stored JWK (a private part) is never published. */
const PUBLIC_PARAMETERS: Record<string, string[]> = { OKP: ["crv", "x"], EC: ["crv", "x", "y"], RSA: ["n", "e"] };

function toPublicJWK(row: JwkRow): PublicJWK | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.publicKey);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const stored = parsed as Record<string, unknown>;
  const names = typeof stored.kty === "string" ? PUBLIC_PARAMETERS[stored.kty] : undefined;
  if (!names) return null;
  const jwk: PublicJWK = { kty: String(stored.kty), alg: row.alg, kid: row.id };
  for (const name of names) {
    const value = stored[name];
    if (typeof value === "string") jwk[name] = value;
  }
  return jwk;
}

async function openKey(ctx: AuthContext, row: JwkRow): Promise<SigningKey | null> {
  // Any accepted secret: a key sealed before a rotation keeps signing (and is sealed again at start).
  const opened = unsealWithAny(ctx.acceptedSecrets, SEALED_PURPOSE, row.privateKey)?.plaintext ?? null;
  if (opened === null) return null;
  try {
    const alg = row.alg as SigningAlgorithm;
    return { id: row.id, alg, privateKey: await importPrivateJWK(JSON.parse(opened) as JWK, alg) };
  } catch {
    return null;
  }
}

/** How long a key retired now stays published: the longest a token it signed may live, plus margins. */
function retirementMs(ctx: AuthContext): number {
  const idTokens = ctx.config.oidcProvider.enabled ? ctx.config.oidcProvider.idTokenExpiresIn : 0;
  return Math.max(ctx.config.jwt.expiresIn, idTokens) * 1000 + KEY_CACHE_MS + SKEW_MS;
}

const OIDC_ALGORITHMS: readonly SigningAlgorithm[] = ["RS256", "ES256", "EdDSA"];

/** The algorithms whose current key stays current: a key of any other is retired with the next new key. */
function algorithmsInUse(ctx: AuthContext): SigningAlgorithm[] {
  const configured = ctx.config.jwt.algorithm;
  if (!ctx.config.oidcProvider.enabled) return [configured];
  return [configured, ...OIDC_ALGORITHMS.filter((alg) => alg !== configured)];
}

/** A loaded signing key and when it was read; `loading` lets concurrent first uses share one read. */
interface SigningKeyCache {
  key: SigningKey | null;
  loadedAt: number;
  loading: Promise<unknown> | null;
}

/** The signing key of each algorithm in use in this context, read from the database now and then. */
const signingKeyCaches = perContext(() => new Map<SigningAlgorithm, SigningKeyCache>());

function signingKeyCache(ctx: AuthContext, alg: SigningAlgorithm): SigningKeyCache {
  const caches = signingKeyCaches(ctx);
  let cache = caches.get(alg);
  if (!cache) {
    cache = { key: null, loadedAt: 0, loading: null };
    caches.set(alg, cache);
  }
  return cache;
}

function remember(ctx: AuthContext, key: SigningKey): SigningKey {
  const cache = signingKeyCache(ctx, key.alg);
  cache.key = key;
  cache.loadedAt = ctx.now();
  return key;
}

export interface CreatedKey {
  id: string;
  alg: SigningAlgorithm;
  createdAt: number;
  /** Keys that were current and are now retired (still published until their tokens expire). */
  retired: string[];
}

/** Generate a key of `alg` (the configured algorithm), make it current and retire the one it replaces. */
export async function createSigningKey(
  ctx: AuthContext,
  alg: SigningAlgorithm = ctx.config.jwt.algorithm,
): Promise<CreatedKey & { key: SigningKey }> {
  const { publicJWK, privateJWK } = await generateSigningKeyPair(alg);
  const id = generateId();
  const now = ctx.now();
  const sealed = seal(ctx.secret, SEALED_PURPOSE, JSON.stringify(privateJWK));
  const retired = await inTransaction(ctx.db, async (trx) => {
    await insertJwk(trx, { id, alg, publicKey: JSON.stringify(publicJWK), privateKey: sealed, createdAt: now });
    const ids = await retireJwks(trx, id, alg, algorithmsInUse(ctx), now + retirementMs(ctx));
    await deleteExpiredJwks(trx, now);
    return ids;
  });
  const key = remember(ctx, { id, alg, privateKey: await importPrivateJWK(privateJWK, alg) });
  return { id, alg, createdAt: now, retired, key };
}

async function loadOrCreate(ctx: AuthContext, alg: SigningAlgorithm): Promise<SigningKey> {
  const rows = await listPublishedJwks(ctx.db, ctx.now());
  const current = rows.find((row) => row.expiresAt === null && row.alg === alg);
  if (current) {
    const key = await openKey(ctx, current);
    if (key) return remember(ctx, key);
    ctx.logger.warn(
      "the current JWT signing key cannot be decrypted with this AUTH_SECRET (was the secret changed? put the old one in AUTH_SECRET_PREVIOUS): generated a new key; tokens signed with the old one stop verifying when it expires",
      { kid: current.id },
    );
  }
  return (await createSigningKey(ctx, alg)).key;
}

/** The key that signs with `alg` now: created on first use, re-read from the database every KEY_CACHE_MS. */
export async function currentSigningKey(
  ctx: AuthContext,
  alg: SigningAlgorithm = ctx.config.jwt.algorithm,
): Promise<SigningKey> {
  const cache = signingKeyCache(ctx, alg);
  const fresh = ctx.now() - cache.loadedAt < KEY_CACHE_MS;
  if (cache.key && fresh) return cache.key;
  if (!cache.loading) {
    cache.loading = loadOrCreate(ctx, alg).finally(() => {
      cache.loading = null;
    });
  }
  return (await cache.loading) as SigningKey;
}

/** The JWKS: every key whose tokens may still be valid, the current one first (created on first use). */
export async function publishedKeys(ctx: AuthContext): Promise<PublicJWK[]> {
  await currentSigningKey(ctx);
  // ID tokens are RS256 unless a client asked otherwise: its key is there before the first one is signed.
  if (ctx.config.oidcProvider.enabled) await currentSigningKey(ctx, "RS256");
  const rows = await listPublishedJwks(ctx.db, ctx.now());
  // Current keys first (two made in the same millisecond would otherwise sort by their random ids).
  rows.sort((a, b) => Number(a.expiresAt !== null) - Number(b.expiresAt !== null));
  return rows.map(toPublicJWK).filter((jwk): jwk is PublicJWK => jwk !== null);
}

/**
 * `authd keys rotate`: a new current key of the configured algorithm, and of each other algorithm in use
 * that has one (the OpenID Provider's); the old ones stay published until their tokens expire.
 */
export async function rotateSigningKey(ctx: AuthContext): Promise<CreatedKey> {
  const { key: _key, ...created } = await createSigningKey(ctx);
  const current = await listPublishedJwks(ctx.db, ctx.now());
  for (const alg of algorithmsInUse(ctx).slice(1)) {
    if (!current.some((row) => row.expiresAt === null && row.alg === alg)) continue;
    const other = await createSigningKey(ctx, alg);
    created.retired.push(...other.retired);
  }
  return created;
}

export interface KeyListing {
  id: string;
  alg: string;
  createdAt: string;
  /** null: the current key; otherwise when it leaves the JWKS. */
  expiresAt: string | null;
}

/** The published keys for operators (ids, algorithms, dates; nothing secret). */
export async function listSigningKeys(ctx: AuthContext): Promise<KeyListing[]> {
  const rows = await listPublishedJwks(ctx.db, ctx.now());
  return rows.map((row) => ({
    id: row.id,
    alg: row.alg,
    createdAt: new Date(Number(row.createdAt)).toISOString(),
    expiresAt: row.expiresAt === null ? null : new Date(Number(row.expiresAt)).toISOString(),
  }));
}
