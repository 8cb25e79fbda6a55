import type { AuthContext } from "../context.ts";
import { findUserOrThrow } from "./admin.ts";
import { mailResetLink } from "./password-reset.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { markEmailVerified } from "./users.ts";

// What an administrator does about a user's mailbox (the web console, over ui/data.ts): vouch for the address,
// or mail the user a reset link. Each records its event from the administrator's source.

/**
 * Mark the user's address verified (email_verified, method admin); false when it already was. This is the
 * administrator's word, not a proof of the mailbox, so it claims nothing (account-claim.ts): whatever was made
 * on the account before stays, as the administrator vouches for the person holding it.
 */
export async function verifyEmailAsAdmin(ctx: AuthContext, userId: string, source: EventSource): Promise<boolean> {
  const user = await findUserOrThrow(ctx, userId);
  if (user.emailVerified) return false;
  const event = { type: "email_verified", outcome: "success", method: "admin", userId: user.id, source } as const;
  return markEmailVerified(ctx, user.id, event);
}

/**
 * Mail the user the link /request-password-reset would (password_reset_requested): RESET_PASSWORD_DISABLED
 * while passwords are off, USER_NOT_FOUND for no such user.
 */
export async function mailPasswordResetAsAdmin(ctx: AuthContext, userId: string, source: EventSource): Promise<void> {
  const user = await findUserOrThrow(ctx, userId);
  await mailResetLink(ctx, user);
  await recordSecurityEvent(ctx, { type: "password_reset_requested", outcome: "success", userId: user.id, source });
}
