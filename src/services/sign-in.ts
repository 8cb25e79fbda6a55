import type { AuthContext } from "../context.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { provePassword, type ThrottleIdentifier } from "./account-throttle.ts";
import { checkPassword } from "./passwords.ts";
import type { EventSource } from "./security-events.ts";
import { type CreateSessionOptions, createSession, type LiveSession } from "./sessions/sessions.ts";
import { findUserByEmail, findUserByUsername, isBanned, liftExpiredBan } from "./users.ts";

// The two steps every sign-in shares, whatever proved who the caller is (password, username, social
// provider, verification link, sign-up's auto sign-in, change-password's new session, impersonation):
// proving a password, and starting a session under the ban rules.

/** The proven user, or why not: the user the identifier named (if any) is reported for the security log. */
export type PasswordSignIn = { ok: true; user: UserRow } | { ok: false; userId: string | null };

/**
 * Prove a password for an email or a username, under the per-account throttle (TOO_MANY_REQUESTS once
 * the identifier's count is full, logged as coming from `source`). Unknown users take as long as known ones.
 */
export async function signInWithPassword(
  ctx: AuthContext,
  identifier: ThrottleIdentifier,
  password: string,
  source: EventSource,
): Promise<PasswordSignIn> {
  let named: UserRow | undefined;
  const user = await provePassword(
    ctx,
    identifier,
    async () => {
      named =
        "email" in identifier
          ? await findUserByEmail(ctx, identifier.email)
          : await findUserByUsername(ctx, identifier.username);
      return (await checkPassword(ctx, named, password)) ? named : null;
    },
    source,
  );
  return user ? { ok: true, user } : { ok: false, userId: named?.id ?? null };
}

/** BANNED_USER (the configured message) for a user whose ban is in force; the checks a sign-in answers first. */
export function assertNotBanned(ctx: AuthContext, user: UserRow): void {
  if (ctx.config.admin.enabled && isBanned(user, ctx.now()))
    throw new AuthError("BANNED_USER", { message: ctx.config.admin.bannedUserMessage });
}

/**
 * Start a session for a user who proved who they are. A user whose ban is in force gets BANNED_USER (the
 * configured message); a ban whose expiry has passed is lifted first.
 */
export async function startSession(
  ctx: AuthContext,
  user: UserRow,
  options: CreateSessionOptions = {},
): Promise<LiveSession> {
  assertNotBanned(ctx, user);
  if (ctx.config.admin.enabled && user.banned) await liftExpiredBan(ctx, user.id);
  return createSession(ctx, user, options);
}
