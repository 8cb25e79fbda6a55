import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { type ErrorKey, isAuthError } from "../errors.ts";
import type { ThrottleIdentifier } from "../services/account-throttle.ts";
import type { PasskeyProof } from "../services/passkeys/authentication.ts";
import type { SignInFailureReason } from "../services/security-events.ts";
import type { LiveSession } from "../services/sessions/sessions.ts";
import { signInWithPassword, startSession } from "../services/sign-in.ts";
import { completeSignIn } from "../services/two-factor/sign-in-gate.ts";
import type { UserRecord } from "../services/users.ts";
import { clientAddress } from "./client-address.ts";
import {
  hasDontRememberCookie,
  readSignedCookie,
  setChallengeCookies,
  setSessionCookies,
  setSignedCookie,
  twoFactorCookieNames,
} from "./cookies.ts";
import { recordSignInFailure, requestSource, type SignInAttempt, signInEvent } from "./security-log.ts";

// What a request adds to the sign-in services: the caller's address and user agent on the session, the
// session cookies (or the two-factor challenge's), and the security log's sign-in lines.

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

/** The new session's facts from the request: its address and user agent. */
export function sessionOptionsOf(c: Context, ctx: AuthContext, rememberMe: boolean | undefined) {
  return { rememberMe, ipAddress: clientAddress(c, ctx), userAgent: c.req.header("user-agent") ?? "" };
}

/** A magic link or an email code skips the second factor only when the operator said so. */
function mailboxSkipsSecondFactor(ctx: AuthContext, attempt: SignInAttempt): boolean {
  return (
    ctx.config.twoFactor.skipForPasswordless && (attempt.method === "magic-link" || attempt.method === "email-otp")
  );
}

/** A sign-in's answer: a session, or (two-factor on) a challenge whose cookie is set. */
export type SignInOutcome = { kind: "session"; session: LiveSession } | { kind: "two-factor" };

/**
 * Sign in a user who proved who they are by `attempt`'s method: every sign-in comes here, so a user with
 * two-factor on gets the challenge (the two_factor cookie, no session) unless this browser is trusted.
 * A banned user's refusal is logged as a failed sign-in.
 * An attempt marked `strongFactor` (a passkey) proved a strong factor already and is not challenged.
 */
export async function signInUser(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  rememberMe: boolean | undefined,
  attempt: SignInAttempt,
): Promise<SignInOutcome> {
  const names = twoFactorCookieNames(ctx);
  let step: Awaited<ReturnType<typeof completeSignIn>>;
  try {
    step = await completeSignIn(ctx, user, {
      method: attempt.method,
      provider: attempt.provider,
      skipSecondFactor: attempt.strongFactor === true || mailboxSkipsSecondFactor(ctx, attempt),
      sessionOptions: { ...sessionOptionsOf(c, ctx, rememberMe), event: () => signInEvent(c, ctx, attempt, user.id) },
      trustCookie: readSignedCookie(c, ctx, names.trustDevice),
      source: requestSource(c, ctx),
    });
  } catch (error) {
    if (isAuthError(error) && error.key === "BANNED_USER")
      await recordSignInFailure(c, ctx, attempt, "banned", user.id);
    throw error;
  }
  if (step.kind === "challenge") {
    setChallengeCookies(c, ctx, step.challengeId, rememberMe === false);
    return { kind: "two-factor" };
  }
  setSessionCookies(c, ctx, { session: step.session, user }, { dontRemember: rememberMe === false });
  if (step.trust) setSignedCookie(c, ctx, names.trustDevice, step.trust, ctx.config.twoFactor.trustDeviceMaxAge);
  return { kind: "session", session: step.session };
}

/**
 * A session for a user who is already signed in or has just signed up (sign-up's auto sign-in,
 * change-password's replacement session): no second factor is asked for, and the cookies are set.
 */
export async function startUserSession(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  rememberMe: boolean | undefined,
): Promise<LiveSession> {
  const session = await startSession(ctx, user, sessionOptionsOf(c, ctx, rememberMe));
  setSessionCookies(c, ctx, { session, user }, { dontRemember: rememberMe === false });
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
    if (reason) await recordSignInFailure(c, ctx, PASSKEY_ATTEMPT, reason);
    throw error;
  }
  // A browser that signed in with rememberMe false before keeps that choice (as in Better Auth).
  const rememberMe = hasDontRememberCookie(c, ctx) ? false : undefined;
  const outcome = await signInUser(c, ctx, proof.user, rememberMe, PASSKEY_ATTEMPT);
  if (outcome.kind !== "session") throw new Error("a passkey sign-in was challenged for a second factor");
  return outcome.session;
}
