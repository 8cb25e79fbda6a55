import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import type { RequestOrigin } from "../request-origin.ts";
import { type CreateSessionOptions, createSession, type LiveSession } from "../sessions/sessions.ts";
import { isBanned, liftExpiredBan } from "../users.ts";

// The last step every sign-in shares, whatever proved who the caller is (the pipeline's methods,
// sign-up's auto sign-in, change-password's new session, a completed second factor, impersonation):
// starting a session under the ban rules.

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

/** A new session's facts from where the request came from: its address and user agent, and rememberMe. */
export function sessionOptionsFor(origin: RequestOrigin, rememberMe: boolean | undefined): CreateSessionOptions {
  return { rememberMe, ipAddress: origin.ip, userAgent: origin.userAgent ?? "" };
}
