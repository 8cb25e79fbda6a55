import type { AuthContext } from "../context.ts";
import { deleteCredentialAccount, deleteProviderAccounts } from "../db/repositories/accounts.ts";
import type { UserRow } from "../db/schema.ts";
import { withTransaction } from "../platform/transaction.ts";
import { defineHook } from "./hooks.ts";
import type { MailboxProofMethod } from "./security-event-types.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";
import { findUserById, markEmailVerified } from "./users.ts";

// The pre-registration defense. Anyone can sign up with someone else's address and wait: set a password,
// turn two-factor on, create API keys, register passkeys, trust browsers, link a provider identity of
// their own. None of that proved the mailbox. So the first proof of a never-verified mailbox (a magic link,
// an email code, a provider that vouches for the address, a reset link or code) ends every credential and
// grant made before it, in one transaction with one `account_claimed` event counting what went; the one
// who proved the mailbox then starts from nothing but that proof (docs/security.md, "Accounts and identity").

/** What the proof itself brought, which is the owner's and stays. */
export interface Keep {
  /** The provider account a provider sign-in linked just now (its row id). */
  accountId: string | null;
}

export interface CredentialKind {
  /** Its name in the event's `removed` counts. */
  name: string;
  /**
   * Remove the user's credentials of this kind through `tx` (the claim's transaction), and drop every copy
   * kept of them (this process's memory, Redis, other daemons) so that each is refused at once; how many went.
   */
  remove(tx: AuthContext, user: UserRow, keep: Keep): Promise<number>;
}

/**
 * The credentials and grants of the optional features (API keys, passkeys, trusted browsers, the second
 * factor, the OpenID Provider's consents), each registered by its feature. A new way to act as a user
 * registers its kind here, or a squatter keeps it after the owner proves the mailbox.
 */
export const credentialKinds = defineHook<CredentialKind>("credentialKinds");

/**
 * Every kind of credential or grant a user can hold: the core's and the features'. THE ONE LIST the claim
 * removes; the core's own kinds are the sessions first, then the password and provider identities last.
 */
function everyCredentialKind(): readonly CredentialKind[] {
  return [
    // Cookies and bearer tokens; tombstoned in Redis, dropped from memory now and at commit.
    { name: "sessions", remove: (tx, user) => revokeUserSessions(tx, user.id) },
    ...credentialKinds.handlers(),
    { name: "password", remove: (tx, user) => deleteCredentialAccount(tx.db, user.id) },
    // Provider identities linked before the proof sign in as the user; their tokens act at the provider.
    { name: "providerAccounts", remove: (tx, user, keep) => deleteProviderAccounts(tx.db, user.id, keep.accountId) },
  ];
}

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
  const kinds = everyCredentialKind();
  return withTransaction(ctx, async (tx) => {
    const removed: Record<string, number> = {};
    const keep = { accountId: proof.keepAccountId ?? null };
    for (const kind of kinds) removed[kind.name] = await kind.remove(tx, user, keep);
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
