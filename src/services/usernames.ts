import type { AuthContext } from "../context.ts";
import { findUserByUsername } from "../db/repositories/users.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { isoDate } from "../wire/common.ts";
import type { UsernameSignInUser } from "../wire/user.ts";

// Username rules: length bounds and allowed characters from configuration, compared lower-case.

export function assertValidUsername(ctx: AuthContext, username: string): void {
  const rules = ctx.config.username;
  if (username.length < rules.minLength) throw new AuthError("USERNAME_TOO_SHORT");
  if (username.length > rules.maxLength) throw new AuthError("USERNAME_TOO_LONG");
  if (!new RegExp(rules.pattern).test(username)) throw new AuthError("INVALID_USERNAME");
}

/**
 * Username fields for a new user, validated; {} when none is given. The early lookup gives the usual
 * answer; the unique constraint still decides when two sign-ups race.
 */
export async function prepareUsernameForSignUp(
  ctx: AuthContext,
  body: { username?: string; displayUsername?: string },
): Promise<{ username?: string; displayUsername?: string }> {
  if (!ctx.config.username.enabled || body.username === undefined) return {};
  assertValidUsername(ctx, body.username);
  const username = body.username.toLowerCase();
  if (await findUserByUsername(ctx.db, username)) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
  return { username, displayUsername: body.displayUsername ?? body.username };
}

/** The user as /sign-in/username answers it: a fixed, smaller set of fields than the full user object. */
export function toUsernameSignInUser(user: UserRow): UsernameSignInUser {
  return {
    id: user.id,
    email: user.email,
    emailVerified: Boolean(user.emailVerified),
    username: user.username ?? null,
    name: user.name,
    image: user.image ?? null,
    createdAt: isoDate(user.createdAt),
    updatedAt: isoDate(user.updatedAt),
  };
}
