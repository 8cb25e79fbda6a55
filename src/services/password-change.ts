import type { AuthContext } from "../context.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { addPasswordIfMissing, proveCurrentPassword, setPassword } from "./passwords.ts";
import type { EventSource } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";
import { assertPasswordLength, findUserById } from "./users.ts";

// A user's own password, changed (the current one proven) or set for the first time (an account that
// signed up through a provider or a mailbox has none): the API's change-password and set-password and the
// account page's password section run these. A fresh sign-in (account.freshAge) is the caller's to ask
// for: the API's server calls are exempt, a browser never is.

export interface OwnPasswordChange {
  currentPassword: string;
  newPassword: string;
  /** Every session of the user ends (the caller starts the browser's replacement). */
  revokeOtherSessions: boolean;
}

/** Replace the user's password after proving the current one (INVALID_PASSWORD, counted by the account throttle). */
export async function changeOwnPassword(
  ctx: AuthContext,
  user: UserRow,
  change: OwnPasswordChange,
  source: EventSource,
): Promise<void> {
  assertPasswordLength(ctx, change.newPassword);
  if (!(await proveCurrentPassword(ctx, user, change.currentPassword, source))) throw new AuthError("INVALID_PASSWORD");
  const { revokeOtherSessions } = change;
  await setPassword(ctx, user.id, change.newPassword, {
    type: "password_changed",
    outcome: "success",
    method: "change-password",
    revokedOtherSessions: revokeOtherSessions,
    userId: user.id,
    source,
  });
  if (revokeOtherSessions) await revokeUserSessions(ctx, user.id);
}

/**
 * Give a user without a password one: USER_NOT_FOUND for no such user, USER_ALREADY_HAS_PASSWORD when they
 * have one (a concurrent call that won included).
 */
export async function addFirstPassword(
  ctx: AuthContext,
  userId: string,
  newPassword: string,
  source: EventSource,
): Promise<void> {
  assertPasswordLength(ctx, newPassword);
  const user = await findUserById(ctx, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  const event = { type: "password_changed", outcome: "success", method: "set-password" } as const;
  if (!(await addPasswordIfMissing(ctx, user.id, newPassword, { ...event, userId: user.id, source })))
    throw new AuthError("USER_ALREADY_HAS_PASSWORD");
}
