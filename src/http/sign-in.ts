import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { isAuthError } from "../errors.ts";
import type { ThrottleIdentifier } from "../services/account-throttle.ts";
import type { LiveSession } from "../services/sessions.ts";
import { signInWithPassword, startSession } from "../services/sign-in.ts";
import type { UserRecord } from "../services/users.ts";
import { clientAddress } from "./client-address.ts";
import { setSessionCookies } from "./cookies.ts";
import { recordSignInFailure, requestSource, type SignInAttempt, signInEvent } from "./security-log.ts";

// What a request adds to the sign-in services: the caller's address and user agent on the session, the
// session cookies, and the security log's sign-in lines.

/**
 * The user whose password is proven for `identifier`, or null. Every failure is logged as a failed
 * sign-in, with the user's id when the identifier names one; a throttled attempt (429) too.
 */
export async function provePasswordSignIn(
  c: Context,
  ctx: AuthContext,
  attempt: SignInAttempt & { method: "email" | "username" },
  identifier: ThrottleIdentifier,
  password: string,
): Promise<UserRecord | null> {
  try {
    const result = await signInWithPassword(ctx, identifier, password, requestSource(c, ctx));
    if (result.ok) return result.user;
    await recordSignInFailure(c, ctx, attempt, "invalid_credentials", result.userId);
    return null;
  } catch (error) {
    if (isAuthError(error) && error.key === "TOO_MANY_REQUESTS")
      await recordSignInFailure(c, ctx, attempt, "throttled");
    throw error;
  }
}

/**
 * Start a session for a user who proved who they are, and set its cookies. With `attempt`, it is logged as
 * a sign-in by that method (and a banned user's refusal as a failed one).
 */
export async function signInUser(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  rememberMe: boolean | undefined,
  attempt?: SignInAttempt,
): Promise<LiveSession> {
  let session: LiveSession;
  try {
    session = await startSession(ctx, user, {
      rememberMe,
      ipAddress: clientAddress(c, ctx),
      userAgent: c.req.header("user-agent") ?? "",
      event: attempt && (() => signInEvent(c, ctx, attempt, user.id)),
    });
  } catch (error) {
    if (attempt && isAuthError(error) && error.key === "BANNED_USER")
      await recordSignInFailure(c, ctx, attempt, "banned", user.id);
    throw error;
  }
  setSessionCookies(c, ctx, { session, user }, { dontRemember: rememberMe === false });
  return session;
}
