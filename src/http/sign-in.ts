import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { type ErrorKey, isAuthError } from "../errors.ts";
import type { ThrottleIdentifier } from "../services/account-throttle.ts";
import type { PasskeyProof } from "../services/passkeys/authentication.ts";
import type { SignInFailureReason } from "../services/security-events.ts";
import type { LiveSession } from "../services/sessions.ts";
import { signInWithPassword, startSession } from "../services/sign-in.ts";
import type { UserRecord } from "../services/users.ts";
import { clientAddress } from "./client-address.ts";
import { hasDontRememberCookie, setSessionCookies } from "./cookies.ts";
import { recordSignIn, recordSignInFailure, requestSource, type SignInAttempt } from "./security-log.ts";

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
    recordSignInFailure(c, ctx, attempt, "invalid_credentials", result.userId);
    return null;
  } catch (error) {
    if (isAuthError(error) && error.key === "TOO_MANY_REQUESTS") recordSignInFailure(c, ctx, attempt, "throttled");
    throw error;
  }
}

/**
 * Start a session for a user who proved who they are, and set its cookies. With `attempt`, it is logged as
 * a sign-in by that method (and a banned user's refusal as a failed one). An attempt marked
 * `strongFactor` (a passkey) proved a strong factor already: a second-factor step here must not ask again.
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
    });
  } catch (error) {
    if (attempt && isAuthError(error) && error.key === "BANNED_USER")
      recordSignInFailure(c, ctx, attempt, "banned", user.id);
    throw error;
  }
  setSessionCookies(c, ctx, { session, user }, { dontRemember: rememberMe === false });
  if (attempt) recordSignIn(c, ctx, attempt, user.id);
  return session;
}

/** A passkey proves possession of the authenticator (and, with user verification, the person): a strong factor. */
export const PASSKEY_ATTEMPT = { method: "passkey", strongFactor: true } as const satisfies SignInAttempt;

const PASSKEY_REFUSALS: Partial<Record<ErrorKey, SignInFailureReason>> = {
  SIGN_IN_PASSKEY_NOT_FOUND: "passkey_not_found",
  AUTHENTICATION_FAILED: "assertion_refused",
  CHALLENGE_NOT_FOUND: "invalid_token",
};

/**
 * Sign in with a passkey: `prove` checks the assertion, then the session starts like any other sign-in
 * (bans refused, cookies set, the sign-in logged). The attempt is marked strongFactor, so a second-factor
 * step does not challenge it. Refused proofs are logged as failed sign-ins.
 */
export async function signInWithPasskey(
  c: Context,
  ctx: AuthContext,
  prove: () => Promise<PasskeyProof>,
): Promise<LiveSession> {
  let proof: PasskeyProof;
  try {
    proof = await prove();
  } catch (error) {
    const reason = isAuthError(error) ? PASSKEY_REFUSALS[error.key] : undefined;
    if (reason) recordSignInFailure(c, ctx, PASSKEY_ATTEMPT, reason);
    throw error;
  }
  // A browser that signed in with rememberMe false before keeps that choice (as in Better Auth).
  const rememberMe = hasDontRememberCookie(c, ctx) ? false : undefined;
  return signInUser(c, ctx, proof.user, rememberMe, PASSKEY_ATTEMPT);
}
