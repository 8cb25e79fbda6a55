import type { AuthContext } from "../context.ts";
import type { UserRow } from "../db/schema.ts";
import { isAuthError } from "../errors.ts";
import { type MailboxProof, proveMailbox } from "./account-claim.ts";
import { clearPasswordAttempts } from "./account-throttle.ts";
import { createUser, findUserByEmail } from "./users.ts";

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
 * The user of a mailbox its reader has just proven: found by email in any case, else created (address
 * verified, `name` or "", no password) unless `allowSignUp` is false, in which case null. The first proof of
 * a never-verified address claims the account: whoever signed up with it never showed they read it, and
 * may be waiting for the owner (pre-registration), so everything made on it before goes (account-claim.ts).
 * Proving the mailbox also clears the account's password-attempt count, as a password reset does.
 */
export async function ownerOfProvenMailbox(
  ctx: AuthContext,
  email: string,
  name: string | null | undefined,
  allowSignUp: boolean,
  /** How the mailbox was proven (magic-link, email-otp), and from where. */
  proof: MailboxProof,
): Promise<MailboxOwner | null> {
  const existing = await findUserByEmail(ctx, email);
  if (existing) {
    const { user: owned, verifiedNow } = await proveMailbox(ctx, existing, proof);
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
