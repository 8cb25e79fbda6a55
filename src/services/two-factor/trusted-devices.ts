import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url, matchesKeyedHash } from "../../crypto/hmac.ts";
import { sha256Base64Url } from "../../crypto/random.ts";
import {
  consumeLiveVerification,
  deleteVerificationsOfValue,
  insertVerification,
} from "../../db/repositories/verifications.ts";
import type { Db } from "../../db/schema.ts";

// "Trust this device": the trust_device cookie holds `<mac>!<token>` as Better Auth writes it (mac =
// HMAC-SHA256(app secret, `<userId>!<token>`)). authd also keeps a record of each trusted browser (keyed by
// a hash of the token), so trust can be taken back: disabling two-factor, an administrator's reset and
// every password change delete the user's records, and a cookie without its record counts for nothing.

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

/**
 * Whether the cookie value trusts this browser for `userId`. A trusted cookie is used up (its record
 * deleted in one statement) so that the caller re-issues it for the new session: one sign-in per cookie.
 */
export async function redeemTrustedDevice(
  ctx: AuthContext,
  userId: string,
  cookieValue: string | null,
): Promise<boolean> {
  if (!cookieValue) return false;
  const bang = cookieValue.indexOf("!");
  if (bang < 1) return false;
  const mac = cookieValue.slice(0, bang);
  const token = cookieValue.slice(bang + 1);
  // Any accepted secret: a cookie trusted before a rotation still needs its record below.
  if (!matchesKeyedHash(ctx.acceptedSecrets, `${userId}!${token}`, mac)) return false;
  const record = await consumeLiveVerification(ctx.db, `${PREFIX}${sha256Base64Url(token)}`, ctx.now());
  return record?.value === userId;
}

/** Forget every browser the user trusted (disable, reset, password change); returns how many. */
export function revokeTrustedDevices(ctx: AuthContext, userId: string, db: Db = ctx.db): Promise<number> {
  return deleteVerificationsOfValue(db, PREFIX, userId);
}
