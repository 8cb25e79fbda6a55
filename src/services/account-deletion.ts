import type { AuthContext } from "../context.ts";
import { generateRandomString, LOWER_ALPHANUMERIC, sha256Base64Url } from "../crypto/random.ts";
import { consumeVerification, findVerification, insertVerification } from "../db/repositories/verifications.ts";
import type { SessionRow, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { proveCurrentPassword } from "./passwords.ts";
import type { EventSource } from "./security-events.ts";
import { isSessionFresh } from "./sessions/sessions.ts";
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

/** What a user asking to delete their own account proves (delete-user, the account page's delete section). */
export interface DeletionProof {
  password?: string;
  /** A token from the confirmation mail: deletes at once. */
  token?: string;
  /** The session the request holds; null for an API key standing in for one (no sign-in). */
  session: SessionRow | null;
}

/**
 * The user deleting their own account: by the password, a mailed token, or a session signed in within
 * session.freshAge (SESSION_EXPIRED otherwise). With deleteUser.requireVerification a confirmation link is
 * mailed instead (a given password must still be right). Answers what happened.
 */
export async function deleteOwnAccount(
  ctx: AuthContext,
  user: UserRow,
  proof: DeletionProof,
  callbackURL: string | undefined,
  source: EventSource,
): Promise<"deleted" | "mailed"> {
  let proven = false;
  if (proof.password) {
    if (!(await proveCurrentPassword(ctx, user, proof.password, source))) throw new AuthError("INVALID_PASSWORD");
    proven = true;
  }
  if (proof.token) {
    await deleteUserWithToken(ctx, user, proof.token, source);
    return "deleted";
  }
  if (ctx.config.deleteUser.requireVerification) {
    if (!proven && !proof.session) throw new AuthError("USER_CANNOT_BE_DELETED");
    await sendDeleteConfirmation(ctx, user, callbackURL);
    return "mailed";
  }
  if (!proven) {
    if (!proof.session) throw new AuthError("USER_CANNOT_BE_DELETED");
    if (!isSessionFresh(ctx, proof.session)) throw new AuthError("SESSION_EXPIRED");
  }
  await deleteUser(ctx, user.id, source);
  return "deleted";
}
