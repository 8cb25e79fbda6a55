import type { AuthContext } from "../../context.ts";
import type { MailboxOwner } from "../passwordless.ts";
import type { RequestOrigin } from "../request-origin.ts";
import { sourceOf } from "../request-origin.ts";
import type { SignInFailureReason, SignInMethod } from "../security-event-types.ts";
import { recordSecurityEvent, type SecurityEvent } from "../security-events.ts";

// The security events of signing in: the success (written with the session it starts), the refusals
// (the caller is still nobody known, even when the attempt named a user), and the proof of a mailbox.

/** How a sign-in was attempted: the method, and the provider of a social one. */
export interface SignInAttempt {
  method: SignInMethod;
  provider?: string;
  /**
   * The proof was a strong factor on its own (a passkey: possession of the authenticator, usually with user
   * verification): the gate asks for no second factor. Part of the attempt's events, as it always was.
   */
  strongFactor?: boolean;
}

/** A sign-in that started a session (or, for an API key, authenticated the request) for `userId`. */
export function signInEvent(
  attempt: SignInAttempt & { keyId?: string },
  userId: string,
  origin: RequestOrigin,
): SecurityEvent {
  return { type: "sign_in", outcome: "success", ...attempt, userId, source: sourceOf(origin, "user", userId) };
}

/** Record a sign-in that started no session of its own (an API key authenticating a request). */
export async function recordSignIn(
  ctx: AuthContext,
  attempt: SignInAttempt & { keyId?: string },
  userId: string,
  origin: RequestOrigin,
): Promise<void> {
  await recordSecurityEvent(ctx, signInEvent(attempt, userId, origin));
}

/** A refused sign-in; `userId` when the attempt named a known user (the caller is still nobody known). */
export async function recordSignInFailure(
  ctx: AuthContext,
  attempt: SignInAttempt,
  reason: SignInFailureReason,
  origin: RequestOrigin,
  userId: string | null = null,
): Promise<void> {
  await recordSecurityEvent(ctx, {
    type: "sign_in",
    outcome: "failure",
    ...attempt,
    reason,
    userId,
    source: sourceOf(origin),
  });
}

/** The security events of a proven mailbox (magic link, email code): a sign-up, or an address verified. */
export async function recordMailboxProof(
  ctx: AuthContext,
  owner: MailboxOwner,
  method: "magic-link" | "email-otp",
  origin: RequestOrigin,
): Promise<void> {
  const source = sourceOf(origin, "user", owner.user.id);
  if (owner.isNewUser)
    await recordSecurityEvent(ctx, { type: "sign_up", outcome: "success", method, userId: owner.user.id, source });
  if (owner.verifiedNow)
    await recordSecurityEvent(ctx, {
      type: "email_verified",
      outcome: "success",
      method,
      userId: owner.user.id,
      source,
    });
}
