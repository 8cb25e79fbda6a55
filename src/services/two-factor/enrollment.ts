import type { AuthContext } from "../../context.ts";
import * as repository from "../../db/repositories/two-factor.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError, type ErrorKey, isAuthError } from "../../errors.ts";
import { proveCurrentPassword } from "../passwords.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";
import { assertRecentSignIn, type LiveSession, rotateSession, type SessionWithUser } from "../sessions/sessions.ts";
import { findUserById, updateUser } from "../users.ts";
import { clearSecondFactorFailures } from "./lockout.ts";
import {
  encryptBackupCodes,
  generateBackupCodes,
  generateTotpSecret,
  readTwoFactor,
  totpURI,
  writeTwoFactor,
} from "./store.ts";
import { revokeTrustedDevices } from "./trusted-devices.ts";

// Turning two-factor on and off, and the backup codes: the user's own calls (each needing a recent sign-in,
// account.freshAge, and proving the password, counted with the account's sign-ins so a stolen session
// cannot guess it) and the operator's reset.

/**
 * The password of a signed-in user, or a refusal: `missing` when there is no password to prove (or an
 * empty one was sent), INVALID_PASSWORD when it is wrong.
 */
async function provePassword(
  ctx: AuthContext,
  user: UserRow,
  password: string,
  missing: ErrorKey,
  source: EventSource,
): Promise<void> {
  if (password === "") throw new AuthError(missing);
  try {
    if (await proveCurrentPassword(ctx, user, password, source)) return;
  } catch (error) {
    if (isAuthError(error) && error.key === "CREDENTIAL_ACCOUNT_NOT_FOUND") throw new AuthError(missing);
    throw error;
  }
  throw new AuthError("INVALID_PASSWORD");
}

export interface Enrollment {
  totpURI: string;
  backupCodes: string[];
}

/**
 * A new secret and new backup codes (replacing any); two-factor turns on at the first verified code. The
 * sign-in's age is checked before the password, so an old session cannot try passwords here at all.
 */
export async function enableTwoFactor(
  ctx: AuthContext,
  current: SessionWithUser,
  input: { password: string; issuer?: string },
  source: EventSource,
): Promise<Enrollment> {
  const { user } = current;
  assertRecentSignIn(ctx, current.session);
  await provePassword(ctx, user, input.password, "INVALID_PASSWORD", source);
  const secret = generateTotpSecret();
  const backupCodes = generateBackupCodes(ctx);
  await writeTwoFactor(ctx, user.id, secret, backupCodes);
  return { totpURI: totpURI(input.issuer || ctx.config.appName, user.email, secret), backupCodes };
}

/**
 * The enrolment the user began and has not confirmed with a first code yet, again (the account page after
 * a mistyped first code), under enable's rule of a recent sign-in; null when there is none.
 */
export async function pendingEnrolment(ctx: AuthContext, current: SessionWithUser): Promise<Enrollment | null> {
  if (current.user.twoFactorEnabled) return null;
  assertRecentSignIn(ctx, current.session);
  const record = await readTwoFactor(ctx, current.user.id);
  if (!record) return null;
  return { totpURI: totpURI(ctx.config.appName, current.user.email, record.secret), backupCodes: record.backupCodes };
}

export async function getTotpURI(ctx: AuthContext, user: UserRow, password: string, source: EventSource) {
  const record = await readTwoFactor(ctx, user.id);
  if (!record) throw new AuthError("TOTP_NOT_ENABLED");
  await provePassword(ctx, user, password, "NO_PASSWORD_CREDENTIAL_FOUND", source);
  return { totpURI: totpURI(ctx.config.appName, user.email, record.secret) };
}

/** Turn two-factor off: the secret, the codes and every trusted browser go; the caller's session is rotated. */
export async function disableTwoFactor(
  ctx: AuthContext,
  current: { user: UserRow; session: LiveSession },
  password: string,
  source: EventSource,
): Promise<LiveSession> {
  const { user } = current;
  assertRecentSignIn(ctx, current.session);
  await provePassword(ctx, user, password, "INVALID_PASSWORD", source);
  await removeSecondFactor(ctx, user.id);
  await recordSecurityEvent(ctx, {
    type: "two_factor_disabled",
    outcome: "success",
    method: "user",
    userId: user.id,
    source,
  });
  return rotateSession(ctx, current.session);
}

/** No second factor left: its secret, codes, trusted browsers and any lock (see lockout.ts) go. */
export async function removeSecondFactor(ctx: AuthContext, userId: string): Promise<UserRow | undefined> {
  await repository.deleteTwoFactor(ctx.db, userId);
  await revokeTrustedDevices(ctx, userId);
  await clearSecondFactorFailures(ctx, userId);
  return updateUser(ctx, userId, { twoFactorEnabled: false });
}

/**
 * An operator removes a user's second factor (a lost phone), which also lifts a lock on it: USER_NOT_FOUND
 * when there is no such user.
 */
export async function resetTwoFactor(ctx: AuthContext, userId: string, source: EventSource): Promise<UserRow> {
  const user = await findUserById(ctx, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  const updated = (await removeSecondFactor(ctx, user.id)) ?? user;
  await recordSecurityEvent(ctx, { type: "two_factor_disabled", outcome: "success", method: "admin", userId, source });
  return updated;
}

/** New backup codes in place of the old ones (which stop working at once). */
export async function regenerateBackupCodes(
  ctx: AuthContext,
  current: SessionWithUser,
  password: string,
  source: EventSource,
) {
  const { user } = current;
  if (!user.twoFactorEnabled) throw new AuthError("TWO_FACTOR_ISNT_ENABLED");
  assertRecentSignIn(ctx, current.session);
  await provePassword(ctx, user, password, "NO_PASSWORD_CREDENTIAL_FOUND", source);
  const backupCodes = generateBackupCodes(ctx);
  if (!(await repository.setBackupCodes(ctx.db, user.id, encryptBackupCodes(ctx, backupCodes))))
    throw new AuthError("BACKUP_CODES_ARENT_ENABLED");
  await recordSecurityEvent(ctx, { type: "backup_codes_generated", outcome: "success", userId: user.id, source });
  return { status: true, backupCodes };
}

/** How many backup codes a user has left (none without a second factor). */
export async function countBackupCodes(ctx: AuthContext, userId: string): Promise<number> {
  return (await readTwoFactor(ctx, userId))?.backupCodes.length ?? 0;
}

/** The remaining backup codes of a user (a server call). */
export async function viewBackupCodes(ctx: AuthContext, userId: string) {
  const record = await readTwoFactor(ctx, userId);
  if (!record) throw new AuthError("BACKUP_CODES_ARENT_ENABLED");
  return { status: true, backupCodes: record.backupCodes };
}

/** Whether a user signs in with a second factor (operator views). */
export function hasTwoFactor(user: Pick<UserRow, "twoFactorEnabled">): boolean {
  return Boolean(user.twoFactorEnabled);
}
