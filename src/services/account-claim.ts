import type { AuthContext } from "../context.ts";
import { deleteCredentialAccount, deleteProviderAccounts } from "../db/repositories/accounts.ts";
import { deleteApiKeysByUserId } from "../db/repositories/api-keys.ts";
import { deletePasskeysByUserId } from "../db/repositories/passkeys.ts";
import { deleteTwoFactor } from "../db/repositories/two-factor.ts";
import type { UserRow } from "../db/schema.ts";
import { withTransaction } from "../platform/transaction.ts";
import { forgetApiKeyRows } from "./api-keys/rows.ts";
import type { MailboxProofMethod } from "./security-event-types.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";
import { clearSecondFactorFailures } from "./two-factor/lockout.ts";
import { revokeTrustedDevices } from "./two-factor/trusted-devices.ts";
import { findUserById, markEmailVerified, updateUser } from "./users.ts";

// The pre-registration defense. Anyone can sign up with someone else's address and wait: set a password,
// turn two-factor on, create API keys, register passkeys, trust browsers, link a provider identity of
// their own. None of that proved the mailbox. So the first proof of a never-verified mailbox (a magic link,
// an email code, a provider that vouches for the address, a reset link or code) ends every credential and
// grant made before it, in one transaction with one `account_claimed` event counting what went; the one
// who proved the mailbox then starts from nothing but that proof (docs/security.md, "Accounts and identity").

/** What the proof itself brought, which is the owner's and stays. */
interface Keep {
  /** The provider account a provider sign-in linked just now (its row id). */
  accountId: string | null;
}

interface CredentialKind {
  /** Its name in the event's `removed` counts. */
  name: string;
  /**
   * Remove the user's credentials of this kind through `tx` (the claim's transaction), and drop every copy
   * kept of them (this process's memory, Redis, other daemons) so that each is refused at once; how many went.
   */
  remove(tx: AuthContext, user: UserRow, keep: Keep): Promise<number>;
}

/**
 * Every kind of credential or grant a user can hold. THE ONE LIST: a new way to act as a user (OAuth grants
 * once authd is a provider, say) is added here, or a squatter keeps it after the owner proves the mailbox.
 */
const CREDENTIAL_KINDS: readonly CredentialKind[] = [
  // Cookies and bearer tokens; tombstoned in Redis, dropped from memory now and at commit.
  { name: "sessions", remove: (tx, user) => revokeUserSessions(tx, user.id) },
  {
    name: "apiKeys",
    remove: async (tx, user) => {
      const removed = await deleteApiKeysByUserId(tx.db, user.id);
      // Key rows are kept in memory for verification: dropped now, at commit, and in every other daemon.
      if (removed > 0) await forgetApiKeyRows(tx, tx.db);
      return removed;
    },
  },
  // A passkey signs in on its own and skips the second factor.
  { name: "passkeys", remove: (tx, user) => deletePasskeysByUserId(tx.db, user.id) },
  // A trusted browser would skip the owner's own second factor later.
  { name: "trustedBrowsers", remove: (tx, user) => revokeTrustedDevices(tx, user.id, tx.db) },
  { name: "password", remove: (tx, user) => deleteCredentialAccount(tx.db, user.id) },
  {
    name: "secondFactor",
    remove: async (tx, user) => {
      const removed = await deleteTwoFactor(tx.db, user.id);
      // The squatter's wrong guesses must not lock the owner's own factor later.
      await clearSecondFactorFailures(tx, user.id, tx.db);
      if (user.twoFactorEnabled) await updateUser(tx, user.id, { twoFactorEnabled: false });
      return removed || user.twoFactorEnabled ? 1 : 0;
    },
  },
  // Provider identities linked before the proof sign in as the user; their tokens act at the provider.
  { name: "providerAccounts", remove: (tx, user, keep) => deleteProviderAccounts(tx.db, user.id, keep.accountId) },
];

export interface MailboxProof {
  method: MailboxProofMethod;
  provider?: string;
  /** The provider account the proof linked just now. */
  keepAccountId?: string;
  /** Where the request came from; the actor is the user whose mailbox was proven. */
  source: EventSource;
}

/**
 * End everything made on `user` before this first proof of their mailbox, in one transaction (the caller's
 * when it runs in one) with one event listing the count of each kind removed. Answers the user as it is now.
 */
export function claimAccount(ctx: AuthContext, user: UserRow, proof: MailboxProof): Promise<UserRow> {
  return withTransaction(ctx, async (tx) => {
    const removed: Record<string, number> = {};
    const keep = { accountId: proof.keepAccountId ?? null };
    for (const kind of CREDENTIAL_KINDS) removed[kind.name] = await kind.remove(tx, user, keep);
    await recordSecurityEvent(tx, {
      type: "account_claimed",
      outcome: "success",
      method: proof.method,
      ...(proof.provider ? { provider: proof.provider } : {}),
      removed,
      userId: user.id,
      source: { ...proof.source, actorType: "user", actorId: user.id },
    });
    return (await findUserById(tx, user.id)) ?? user;
  });
}

/**
 * The mailbox of `user` was just proven: mark the address verified, and when this is its first proof (the
 * call that flips the flag, so of concurrent proofs exactly one), claim the account in the same transaction.
 */
export function proveMailbox(
  ctx: AuthContext,
  user: UserRow,
  proof: MailboxProof,
): Promise<{ user: UserRow; verifiedNow: boolean }> {
  if (user.emailVerified) return Promise.resolve({ user, verifiedNow: false });
  return withTransaction(ctx, async (tx) => {
    if (!(await markEmailVerified(tx, user.id))) return { user: { ...user, emailVerified: true }, verifiedNow: false };
    return { user: await claimAccount(tx, user, proof), verifiedNow: true };
  });
}
