import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { proveMailbox } from "../account-claim.ts";
import { claimSignInMail, clearPasswordAttempts, throttleCodeCheck } from "../account-throttle.ts";
import { type MailboxOwner, ownerOfProvenMailbox } from "../passwordless.ts";
import { storePasswordHash } from "../passwords.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";
import { revokeUserSessions } from "../sessions/sessions.ts";
import { assertPasswordLength, findUserByEmail, markEmailVerified } from "../users.ts";
import { createCode, type OtpType, redeemCode } from "./codes.ts";

// Email one-time codes: sign in (and sign up), verify an address, reset a password. Codes are stored and
// checked in codes.ts; every check also counts against the email's code throttle (see
// account-throttle.ts), so guesses spread over many client addresses stay bounded per account.

export { OTP_TYPES, type OtpType, readLiveCode } from "./codes.ts";

const MAIL_OF: Record<OtpType, "sign-in-code" | "email-verification-code" | "password-reset-code"> = {
  "sign-in": "sign-in-code",
  "email-verification": "email-verification-code",
  "forget-password": "password-reset-code",
};

function mailCode(ctx: AuthContext, email: string, type: OtpType, code: string): void {
  ctx.sendMail({
    kind: MAIL_OF[type],
    to: email,
    values: { email, code, codeExpiresIn: ctx.config.emailOTP.expiresIn },
  });
}

/**
 * Mail a new code of `type`. Unknown addresses get no password-reset code, and no code at all while sign-up
 * by code is off; an address that was mailed too many links and codes lately gets none (claimSignInMail).
 * The lookup, the code and the mail run in the background, so every address gets the same answer, equally
 * fast.
 */
export function sendCode(ctx: AuthContext, email: string, type: OtpType): void {
  ctx.background(
    (async () => {
      const needsUser = type === "forget-password" || ctx.config.emailOTP.disableSignUp;
      if (needsUser && !(await findUserByEmail(ctx, email))) {
        ctx.logger.debug("email code not sent: no user with that address");
        return;
      }
      if (!(await claimSignInMail(ctx, email))) {
        ctx.logger.debug("email code not sent: too many sign-in mails to this address");
        return;
      }
      mailCode(ctx, email, type, await createCode(ctx, email, type));
    })(),
  );
}

/**
 * A sign-in code for the mail of a sign-in link (the magic link), so the person can type it where they asked
 * (the link opened on another device, a scanner that spent it): only while email codes are on, and only
 * where the code could sign this address in (a known address, or sign-up by code allowed). It replaces the
 * address's previous sign-in code, as a new "Email me a code" would; it rides in the link's mail, so no
 * further mail is claimed.
 */
export async function signInCodeForMail(
  ctx: AuthContext,
  email: string,
): Promise<{ code: string; expiresIn: number } | null> {
  const options = ctx.config.emailOTP;
  if (!options.enabled) return null;
  if (options.disableSignUp && !(await findUserByEmail(ctx, email))) return null;
  return { code: await createCode(ctx, email, "sign-in"), expiresIn: options.expiresIn };
}

/** A code made for the server (nothing mailed), stored as if sent. */
export function createCodeForServer(ctx: AuthContext, email: string, type: OtpType): Promise<string> {
  return createCode(ctx, email, type);
}

function redeemCodeThrottled(ctx: AuthContext, email: string, type: OtpType, code: string, source: EventSource) {
  return throttleCodeCheck(ctx, email, () => redeemCode(ctx, email, type, code), source);
}

/** Sign in with a sign-in code: the address's user, created when sign-up by code is allowed. */
export async function proveSignInCode(
  ctx: AuthContext,
  email: string,
  code: string,
  source: EventSource,
): Promise<MailboxOwner> {
  await redeemCodeThrottled(ctx, email, "sign-in", code, source);
  const owner = await ownerOfProvenMailbox(ctx, email, null, !ctx.config.emailOTP.disableSignUp, {
    method: "email-otp",
    source,
  });
  if (!owner) throw new AuthError("USER_NOT_FOUND");
  return owner;
}

/** Verify an address with an email-verification code; answers the user and whether this call verified it. */
export async function verifyEmailWithCode(
  ctx: AuthContext,
  email: string,
  code: string,
  source: EventSource,
): Promise<{ user: UserRow; verifiedNow: boolean }> {
  await redeemCodeThrottled(ctx, email, "email-verification", code, source);
  const user = await findUserByEmail(ctx, email);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  const verifiedNow = await markEmailVerified(ctx, user.id);
  await clearPasswordAttempts(ctx, user);
  return { user: { ...user, emailVerified: true }, verifiedNow };
}

/**
 * Set a new password with a forget-password code. The length is checked before the code is used; a user
 * without a password gets a credential account. Unknown addresses read as a wrong code (no code was sent).
 */
export async function resetPasswordWithCode(
  ctx: AuthContext,
  email: string,
  code: string,
  password: string,
  origin: RequestOrigin,
): Promise<{ user: UserRow; revokedSessions: boolean }> {
  assertPasswordLength(ctx, password);
  const source = sourceOf(origin);
  const passwordHash = await ctx.passwords.hash(password);
  await redeemCodeThrottled(ctx, email, "forget-password", code, source);
  const user = await findUserByEmail(ctx, email);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  // The code proves the mailbox: a never-verified account is claimed before the new password is stored.
  const claimed = await withTransaction(ctx, async (tx) => {
    const { verifiedNow } = await proveMailbox(tx, user, { method: "reset-code", source });
    await storePasswordHash(tx, tx.db, user.id, passwordHash);
    return verifiedNow;
  });
  // The owner proved control of the mailbox: an account held by the per-account throttle opens again.
  await clearPasswordAttempts(ctx, user);
  const revokeSessions = ctx.config.emailAndPassword.revokeSessionsOnPasswordReset;
  if (revokeSessions) await revokeUserSessions(ctx, user.id);
  const revokedSessions = claimed || revokeSessions;
  await recordSecurityEvent(ctx, {
    type: "password_reset",
    outcome: "success",
    method: "email-otp",
    revokedSessions,
    userId: user.id,
    source: sourceOf(origin, "user", user.id),
  });
  return { user, revokedSessions };
}
