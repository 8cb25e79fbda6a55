import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url, matchesKeyedHash } from "../../crypto/hmac.ts";
import { sha256Base64Url } from "../../crypto/random.ts";
import {
  consumeLiveVerification,
  deleteVerificationOfValue,
  deleteVerificationsOfValue,
  insertVerification,
  listLiveVerificationsOfValue,
} from "../../db/repositories/verifications.ts";
import type { Db } from "../../db/schema.ts";

// "Trust this device": the trust_device cookie holds `<mac>!<token>` as Better Auth writes it (mac =
// HMAC-SHA256(app secret, `<userId>!<token>`)). authd also keeps a record of each trusted browser (keyed by
// a hash of the token), so trust can be taken back: disabling two-factor, an administrator's reset and
// every password change delete the user's records, and a cookie without its record counts for nothing.
// The user sees their trusted browsers on the account page and forgets any one of them there.

const PREFIX = "trust-device-";

function trustMac(ctx: AuthContext, userId: string, token: string): string {
  return hmacSha256Base64Url(ctx.secret, `${userId}!${token}`);
}

/** Trust this browser for `userId`; the cookie value to set (its lifetime is twoFactor.trustDeviceMaxAge). */
export async function trustDevice(ctx: AuthContext, userId: string, token: string): Promise<string> {
  const now = ctx.now();
  const expiresAt = now + ctx.config.twoFactor.trustDeviceMaxAge * 1000;
  await insertVerification(ctx.db, `${PREFIX}${sha256Base64Url(token)}`, userId, expiresAt, now);
  return `${trustMac(ctx, userId, token)}!${token}`;
}

/** The cookie value's token, when its MAC holds for `userId` under an accepted secret; null otherwise. */
function tokenOfCookie(ctx: AuthContext, userId: string, cookieValue: string | null): string | null {
  if (!cookieValue) return null;
  const bang = cookieValue.indexOf("!");
  if (bang < 1) return null;
  const token = cookieValue.slice(bang + 1);
  // Any accepted secret: a cookie trusted before a rotation still needs its record.
  return matchesKeyedHash(ctx.acceptedSecrets, `${userId}!${token}`, cookieValue.slice(0, bang)) ? token : null;
}

/**
 * Whether the cookie value trusts this browser for `userId`. A trusted cookie is used up (its record
 * deleted in one statement) so that the caller re-issues it for the new session: one sign-in per cookie.
 */
export async function redeemTrustedDevice(
  ctx: AuthContext,
  userId: string,
  cookieValue: string | null,
): Promise<boolean> {
  const token = tokenOfCookie(ctx, userId, cookieValue);
  if (token === null) return false;
  const record = await consumeLiveVerification(ctx.db, `${PREFIX}${sha256Base64Url(token)}`, ctx.now());
  return record?.value === userId;
}

/** Forget every browser the user trusted (disable, reset, password change); returns how many. */
export function revokeTrustedDevices(ctx: AuthContext, userId: string, db: Db = ctx.db): Promise<number> {
  return deleteVerificationsOfValue(db, PREFIX, userId);
}

/** A browser the user trusts: since its last sign-in with a code (each sign-in renews the trust) until `expiresAt`. */
export interface TrustedBrowser {
  id: string;
  lastSignInAt: number;
  expiresAt: number;
  /** The browser asking (its trust_device cookie is this record's). */
  current: boolean;
}

/** The browsers `userId` trusts now, the most recently signed-in first; `cookieValue` marks the caller's own. */
export async function listTrustedDevices(
  ctx: AuthContext,
  userId: string,
  cookieValue: string | null,
): Promise<TrustedBrowser[]> {
  const token = tokenOfCookie(ctx, userId, cookieValue);
  const own = token === null ? null : `${PREFIX}${sha256Base64Url(token)}`;
  const rows = await listLiveVerificationsOfValue(ctx.db, PREFIX, userId, ctx.now());
  return rows.map((row) => ({
    id: row.id,
    lastSignInAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    current: row.identifier === own,
  }));
}

/** Forget one trusted browser of `userId` (it asks for a code at its next sign-in); false for an id not theirs. */
export function forgetTrustedDevice(ctx: AuthContext, userId: string, id: string): Promise<boolean> {
  return deleteVerificationOfValue(ctx.db, id, PREFIX, userId);
}
