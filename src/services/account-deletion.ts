import type { AuthContext } from "../context.ts";
import { generateRandomString, LOWER_ALPHANUMERIC, sha256Base64Url } from "../crypto/random.ts";
import { consumeVerification, findVerification, insertVerification } from "../db/repositories/verifications.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import type { EventSource } from "./security-events.ts";
import { deleteUser } from "./users.ts";

// Deleting a user: by password, by a fresh session, or by a mailed 32-character token. Like reset
// tokens, only the token's SHA-256 is stored (identifier delete-account-{hash}), so the database holds
// nothing that deletes an account; the mailed link carries the token itself.

const DELETE_TOKEN_LENGTH = 32;

export function deleteIdentifier(token: string): string {
  return `delete-account-${sha256Base64Url(token)}`;
}

export function deleteLink(ctx: AuthContext, token: string, callbackURL?: string): string {
  return `${ctx.apiURL}/delete-user/callback?token=${token}&callbackURL=${encodeURIComponent(callbackURL || ctx.appURL)}`;
}

/** Store a delete token for the user and mail its link to their address. */
export async function sendDeleteConfirmation(ctx: AuthContext, user: UserRow, callbackURL?: string): Promise<void> {
  const token = generateRandomString(DELETE_TOKEN_LENGTH, LOWER_ALPHANUMERIC);
  const now = ctx.now();
  const lifetime = ctx.config.deleteUser.deleteTokenExpiresIn;
  try {
    await insertVerification(ctx.db, deleteIdentifier(token), user.id, now + lifetime * 1000, now);
  } catch (error) {
    throw new AuthError("UNABLE_TO_CREATE_VERIFICATION", { cause: error });
  }
  ctx.sendMail({
    kind: "delete-account",
    to: user.email,
    values: { name: user.name, email: user.email, link: deleteLink(ctx, token, callbackURL), linkExpiresIn: lifetime },
  });
}

/**
 * Use a delete token for the signed-in user: it must exist, be live and belong to that user. The
 * single-statement delete makes it single-use even when the link is followed twice at once.
 */
export async function deleteUserWithToken(
  ctx: AuthContext,
  user: UserRow,
  token: string,
  source: EventSource,
): Promise<void> {
  const identifier = deleteIdentifier(token);
  const row = await findVerification(ctx.db, identifier);
  if (!row || Number(row.expiresAt) <= ctx.now() || row.value !== user.id) throw new AuthError("INVALID_TOKEN");
  const consumed = await consumeVerification(ctx.db, identifier);
  if (!consumed || consumed.value !== user.id) throw new AuthError("INVALID_TOKEN");
  await deleteUser(ctx, user.id, source);
}
