import type { AuthContext } from "../../context.ts";
import { signJWT } from "../../crypto/jwt.ts";
import { perContext } from "../../platform/per-context.ts";
import type { UserWire } from "../users.ts";
import { currentSigningKey } from "./keys.ts";

// The JWT a session's holder hands to other services (GET /token, set-auth-jwt on get-session). Claims:
// the session user as get-session shows it (or the configured fields of it), sub = the user id, iss and
// aud (the base URL unless configured), iat, and exp = iat + the configured lifetime (15 minutes). A token
// minted in an admin's impersonation session also names the admin as the actor (RFC 8693's act claim):
// the services that accept it must be able to tell the admin's doing from the user's.

function userClaims(ctx: AuthContext, user: UserWire): Record<string, unknown> {
  const fields = ctx.config.jwt.userFields;
  if (!fields) return { ...user };
  return Object.fromEntries(Object.entries(user).filter(([name]) => fields.includes(name)));
}

// get-session sends a JWT on every call, and signing costs about as much as the rest of a cached
// get-session. A token for the same claims and key signed less than REUSE_MS ago is handed out again:
// it differs from a fresh one only in an iat (and exp) up to a minute earlier. Any change of the user's
// fields changes the claims, so it is never served stale.
const REUSE_MS = 60_000;
const MAX_RECENT = 10_000;

/** JWTs this context signed in the last REUSE_MS, by key and claims. */
const recentJWTs = perContext(() => new Map<string, { token: string; issuedAt: number }>());

/**
 * The token last handed out for a user object (get-session answers a current session with the same one:
 * http/session-answers.ts), checked before the claims are even written out.
 */
const lastForUser = perContext(
  () => new WeakMap<UserWire, { keyId: string; actor: string | null; token: string; issuedAt: number }>(),
);

/** A signed JWT for the user of a live session; `impersonatedBy`: the admin acting as them, if any. */
export async function issueUserJWT(ctx: AuthContext, user: UserWire, impersonatedBy?: string | null): Promise<string> {
  const key = await currentSigningKey(ctx);
  const now = ctx.now();
  const actor = impersonatedBy ?? null;
  const last = lastForUser(ctx).get(user);
  if (last && last.keyId === key.id && last.actor === actor && now >= last.issuedAt && now - last.issuedAt < REUSE_MS)
    return last.token;
  const token = await issueFor(ctx, key, user, actor, now);
  lastForUser(ctx).set(user, { keyId: key.id, actor, token: token.token, issuedAt: token.issuedAt });
  return token.token;
}

async function issueFor(
  ctx: AuthContext,
  key: Awaited<ReturnType<typeof currentSigningKey>>,
  user: UserWire,
  impersonatedBy: string | null,
  now: number,
): Promise<{ token: string; issuedAt: number }> {
  const claims = userClaims(ctx, user);
  // Set after the configured fields, so no jwt.userFields can drop it.
  if (impersonatedBy) claims.act = { sub: impersonatedBy };
  const recent = recentJWTs(ctx);
  const cacheKey = `${key.id}\n${JSON.stringify(claims)}`;
  const hit = recent.get(cacheKey);
  if (hit && now >= hit.issuedAt && now - hit.issuedAt < REUSE_MS) return hit;
  const audience = ctx.config.jwt.audience ?? [ctx.baseURL];
  const token = await signJWT(key.privateKey, claims, {
    alg: key.alg,
    kid: key.id,
    issuer: ctx.config.jwt.issuer ?? ctx.baseURL,
    audience: audience.length === 1 ? audience[0] : audience,
    subject: user.id,
    issuedAt: Math.floor(now / 1000),
    expiresInSeconds: ctx.config.jwt.expiresIn,
  });
  recent.delete(cacheKey);
  if (recent.size >= MAX_RECENT) recent.delete(recent.keys().next().value ?? "");
  const issued = { token, issuedAt: now };
  recent.set(cacheKey, issued);
  return issued;
}
