import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import type { LiveSession } from "../services/sessions/sessions.ts";
import type { SignInStep } from "../services/sign-in/gate.ts";
import { sessionOptionsFor, startSession } from "../services/sign-in/start-session.ts";
import type { SignInRequest } from "../services/sign-in/strategy.ts";
import type { UserRecord } from "../services/users.ts";
import type { VerificationLinkOutcome } from "../services/verification-link.ts";
import {
  hasDontRememberCookie,
  readSignedCookie,
  setChallengeCookies,
  setSessionCookies,
  setSessionDataCookie,
  setSignedCookie,
  twoFactorCookieNames,
} from "./cookies.ts";
import { requestOrigin } from "./security-log.ts";
import type { ResolvedSession } from "./session.ts";

// What HTTP adds to the sign-in pipeline (src/services/sign-in/): the request as a SignInRequest going in,
// and the cookies of the outcome coming out. The flow itself is the services'.

/** The request as a sign-in needs it: address, user agent, the trusted-browser cookie, rememberMe. */
export function signInRequestOf(c: Context, ctx: AuthContext, rememberMe: boolean | undefined): SignInRequest {
  const trustedBrowser = readSignedCookie(c, ctx, twoFactorCookieNames(ctx).trustDevice);
  return { ...requestOrigin(c, ctx), rememberMe, trustedBrowser };
}

/** rememberMe of a browser that signed in with rememberMe false before: it keeps that choice (as in Better Auth). */
export function rememberedChoice(c: Context, ctx: AuthContext): false | undefined {
  return hasDontRememberCookie(c, ctx) ? false : undefined;
}

/**
 * The cookies of a sign-in that got through the gate: the session's (and a re-issued trust_device), or,
 * with two-factor on, the challenge's (no session).
 */
export function setSignInCookies(
  c: Context,
  ctx: AuthContext,
  step: SignInStep & { user: UserRecord },
  request: SignInRequest,
): void {
  const dontRemember = request.rememberMe === false;
  if (step.kind === "challenge") {
    setChallengeCookies(c, ctx, step.challengeId, dontRemember);
    return;
  }
  setSessionCookies(c, ctx, { session: step.session, user: step.user }, { dontRemember });
  if (step.trust)
    setSignedCookie(c, ctx, twoFactorCookieNames(ctx).trustDevice, step.trust, ctx.config.twoFactor.trustDeviceMaxAge);
}

/**
 * A session for a user who is already signed in (change-password's replacement session): no second factor
 * is asked for, and the cookies are set. Sign-up's auto sign-in starts its session in the service
 * (src/services/sign-up.ts) and the route sets the cookies.
 */
export async function startUserSession(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  rememberMe: boolean | undefined,
): Promise<LiveSession> {
  const session = await startSession(ctx, user, sessionOptionsFor(requestOrigin(c, ctx), rememberMe));
  setSessionCookies(c, ctx, { session, user }, { dontRemember: rememberMe === false });
  return session;
}

/**
 * The cookies of a followed verification link (followVerificationLink), for the API route and the page alike:
 * the sign-in's that followed it, or the signed-in session's cached user data, now with the new address or
 * verified.
 */
export function setVerificationLinkCookies(
  c: Context,
  ctx: AuthContext,
  outcome: VerificationLinkOutcome,
  session: ResolvedSession | null,
  request: SignInRequest,
): void {
  if (outcome.kind === "failed") return;
  if (outcome.kind === "verified" && outcome.signedIn) {
    setSignInCookies(c, ctx, outcome.signedIn, request);
    return;
  }
  const user = outcome.kind === "email-changed" ? outcome.user : outcome.sessionUser;
  if (session && user) setSessionDataCookie(c, ctx, { session: session.session, user });
}
