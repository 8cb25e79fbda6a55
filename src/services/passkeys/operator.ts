import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import type { Passkey } from "../../wire/passkey.ts";
import type { EventSource } from "../security-events.ts";
import { findUserById } from "../users.ts";
import { listPasskeys, removePasskey } from "./passkeys.ts";

// A user's passkeys as an operator sees and removes them: the admin routes, `authd users passkeys` /
// `authd users remove-passkey` and the terminal UI's user screen. The user must exist (USER_NOT_FOUND).

export async function listUserPasskeys(ctx: AuthContext, userId: string): Promise<Passkey[]> {
  if (!(await findUserById(ctx, userId))) throw new AuthError("USER_NOT_FOUND");
  return listPasskeys(ctx, userId);
}

/** Remove one passkey of `userId` (PASSKEY_NOT_FOUND when it is not theirs); logged as done by `source`. */
export async function removeUserPasskey(
  ctx: AuthContext,
  userId: string,
  passkeyId: string,
  source: EventSource,
): Promise<Passkey> {
  if (!(await findUserById(ctx, userId))) throw new AuthError("USER_NOT_FOUND");
  return removePasskey(ctx, userId, passkeyId, source);
}
