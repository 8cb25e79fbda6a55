import type { AuthContext } from "../context.ts";
import { generateRandomString, sha256Base64Url } from "../crypto/random.ts";
import { findUserById } from "../db/repositories/users.ts";
import {
  consumeVerification,
  deleteVerificationsOfValue,
  findVerification,
  insertVerification,
} from "../db/repositories/verifications.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { proveMailbox } from "./account-claim.ts";
import { clearPasswordAttempts } from "./account-throttle.ts";
import { storePasswordHash } from "./passwords.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";
import { assertPasswordLength, findUserByEmail } from "./users.ts";

// Password reset: a 24-character token mailed as {api}/reset-password/{token}?callbackURL=…, stored as a
// verification value whose identifier is reset-password:{SHA-256 of the token}. Only the hash is at rest,
// so a leaked database (or backup) holds no usable reset link; the link format is unchanged because the
// hash is computed from the token the link carries.

const RESET_TOKEN_LENGTH = 24;
const RESET_PREFIX = "reset-password:";

export function resetIdentifier(token: string): string {
  return `${RESET_PREFIX}${sha256Base64Url(token)}`;
}

export function resetLink(ctx: AuthContext, token: string, redirectTo?: string): string {
  return `${ctx.apiURL}/reset-password/${token}?callbackURL=${encodeURIComponent(redirectTo || ctx.appURL)}`;
}

function assertResetEnabled(ctx: AuthContext): void {
  if (!ctx.config.emailAndPassword.enabled) throw new AuthError("RESET_PASSWORD_DISABLED");
}

/**
 * Start a reset. Everything that depends on whether the address exists (lookup, token, mail) runs in the
 * background, so the answer is the same, and equally fast, for known and unknown addresses.
 */
export function requestPasswordReset(ctx: AuthContext, email: string, redirectTo?: string): void {
  assertResetEnabled(ctx);
  ctx.background(
    (async () => {
      const user = await findUserByEmail(ctx, email);
      if (!user) {
        ctx.logger.debug("password reset requested for an unknown email");
        return;
      }
      await mailResetLink(ctx, user, redirectTo);
    })(),
  );
}

/** A new reset token for `user`, mailed to their address as a link (the reset request's step, and an operator's). */
export async function mailResetLink(
  ctx: AuthContext,
  user: Pick<UserRow, "id" | "name" | "email">,
  redirectTo?: string,
) {
  assertResetEnabled(ctx);
  const token = generateRandomString(RESET_TOKEN_LENGTH);
  const now = ctx.now();
  const lifetime = ctx.config.emailAndPassword.resetPasswordTokenExpiresIn;
  await insertVerification(ctx.db, resetIdentifier(token), user.id, now + lifetime * 1000, now);
  ctx.sendMail({
    kind: "reset-password",
    to: user.email,
    values: { name: user.name, email: user.email, link: resetLink(ctx, token, redirectTo), linkExpiresIn: lifetime },
  });
}

/** Whether a reset token is live (for the GET link, which only forwards it to the app). */
export async function isResetTokenValid(ctx: AuthContext, token: string): Promise<boolean> {
  const row = await findVerification(ctx.db, resetIdentifier(token));
  return row !== undefined && Number(row.expiresAt) > ctx.now();
}

/**
 * Use a reset token: the token is deleted and the password written in one transaction. The delete
 * returns the row to exactly one of any number of concurrent callers, so a token resets a password once.
 * Answers the user whose password it was.
 */
export async function resetPassword(
  ctx: AuthContext,
  token: string | undefined,
  newPassword: string,
  source: EventSource,
): Promise<UserRow> {
  assertResetEnabled(ctx);
  if (!token) throw new AuthError("INVALID_TOKEN");
  assertPasswordLength(ctx, newPassword);
  const passwordHash = await ctx.passwords.hash(newPassword);
  const user = await withTransaction(ctx, async (tx) => {
    const trx = tx.db;
    const row = await consumeVerification(trx, resetIdentifier(token));
    if (!row || Number(row.expiresAt) <= ctx.now()) return null;
    const owner = await findUserById(trx, row.value);
    if (!owner) return null;
    // The link proves the mailbox: a never-verified account is claimed before the new password is stored.
    const { verifiedNow } = await proveMailbox(tx, owner, { method: "reset-link", source });
    await storePasswordHash(ctx, trx, row.value, passwordHash);
    // Every other outstanding reset link of this user dies with this one.
    await deleteVerificationsOfValue(trx, RESET_PREFIX, row.value);
    const revokedSessions = verifiedNow || ctx.config.emailAndPassword.revokeSessionsOnPasswordReset;
    const actor = { ...source, actorType: "user", actorId: owner.id } as const;
    await recordSecurityEvent(tx, {
      type: "password_reset",
      outcome: "success",
      revokedSessions,
      userId: owner.id,
      source: actor,
    });
    return owner;
  });
  if (!user) throw new AuthError("INVALID_TOKEN");
  // The owner proved control of the mailbox: an account held by the per-account throttle opens again.
  await clearPasswordAttempts(ctx, user);
  if (ctx.config.emailAndPassword.revokeSessionsOnPasswordReset) await revokeUserSessions(ctx, user.id);
  return user;
}
