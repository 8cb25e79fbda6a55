import type { AuthContext } from "../context.ts";
import { deleteCredentialAccount } from "../db/repositories/accounts.ts";
import type { UserRow } from "../db/schema.ts";
import { isAuthError } from "../errors.ts";
import { clearPasswordAttempts } from "./account-throttle.ts";
import { revokeUserSessions } from "./sessions.ts";
import { removeSecondFactor } from "./two-factor/enrollment.ts";
import { createUser, findUserByEmail, markEmailVerified } from "./users.ts";

// What magic links and email codes share: once someone has shown they read a mailbox (followed the link,
// typed the code), the user of that address is theirs, and is created when sign-up through the mailbox is
// allowed. Starting the session is the caller's (src/http/sign-in.ts signInUser, under the ban and
// two-factor rules of every sign-in).

export interface MailboxOwner {
  /** The user, with the address marked verified. */
  user: UserRow;
  /** Created just now (the caller records the sign-up). */
  isNewUser: boolean;
  /** An existing user whose address this proof verified (the caller records it). */
  verifiedNow: boolean;
}

/**
 * The first proof of a mailbox whose account was never verified: whoever signed up with that address (and
 * set its password) never showed they read it, and may be an attacker waiting for the owner (pre-registration
 * takeover). As with a provider identity linked into such an account (docs/security.md), the password goes,
 * a second factor set up by that someone goes, and every session of the account is revoked; the owner signs
 * in with the proof and may set a password and a second factor of their own.
 */
async function claimUnprovenAccount(ctx: AuthContext, user: UserRow): Promise<UserRow> {
  const passwords = await deleteCredentialAccount(ctx.db, user.id);
  const withoutFactor = user.twoFactorEnabled ? ((await removeSecondFactor(ctx, user.id)) ?? user) : user;
  const revoked = await revokeUserSessions(ctx, user.id);
  if (passwords || revoked || user.twoFactorEnabled)
    ctx.logger.info("mailbox proven for a never-verified account: password, second factor and sessions removed", {
      userId: user.id,
      revoked,
    });
  return withoutFactor;
}

/**
 * The user of a mailbox its reader has just proven: found by email in any case, else created (address
 * verified, `name` or "", no password) unless `allowSignUp` is false, in which case null. Proving the mailbox
 * also clears the account's password-attempt count, as a password reset does.
 */
export async function ownerOfProvenMailbox(
  ctx: AuthContext,
  email: string,
  name: string | null | undefined,
  allowSignUp: boolean,
): Promise<MailboxOwner | null> {
  const existing = await findUserByEmail(ctx, email);
  if (existing) {
    const verifiedNow = !existing.emailVerified && (await markEmailVerified(ctx, existing.id));
    const owned = verifiedNow ? await claimUnprovenAccount(ctx, existing) : existing;
    await clearPasswordAttempts(ctx, owned);
    return { user: { ...owned, emailVerified: true }, isNewUser: false, verifiedNow };
  }
  if (!allowSignUp) return null;
  try {
    const user = await createUser(ctx, { email, name: name ?? "", emailVerified: true });
    return { user, isNewUser: true, verifiedNow: false };
  } catch (error) {
    // Two proofs for one new address used at once: the unique email index lets one of them create the
    // user, and the other signs in to it.
    if (!isAuthError(error) || error.key !== "USER_ALREADY_EXISTS") throw error;
    const user = await findUserByEmail(ctx, email);
    if (!user) throw error;
    return { user, isNewUser: false, verifiedNow: false };
  }
}
