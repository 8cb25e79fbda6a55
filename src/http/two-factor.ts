import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import type { EventSource } from "../services/security-events.ts";
import { sessionOptionsFor } from "../services/sign-in/start-session.ts";
import { readChallenge } from "../services/two-factor/challenge.ts";
import { disableTwoFactor } from "../services/two-factor/enrollment.ts";
import { trustDevice } from "../services/two-factor/trusted-devices.ts";
import type {
  VerificationContext,
  VerificationRequest,
  VerificationResult,
} from "../services/two-factor/verification.ts";
import { toPublicUserWire } from "../services/users.ts";
import type { TwoFactorVerification } from "../wire/two-factor.ts";
import {
  clearCookie,
  cookieNames,
  hasDontRememberCookie,
  readSignedCookie,
  setSessionCookies,
  setSignedCookie,
  twoFactorCookieNames,
} from "./cookies.ts";
import { requestOrigin, requestSource } from "./security-log.ts";
import type { ResolvedSession } from "./session.ts";
import { rememberedChoice } from "./sign-in.ts";

// What the two-factor routes share: in which context a code is checked (the caller's session, else the
// sign-in challenge the two_factor cookie names), and the cookies and answer of a successful check.

/** The caller's session, else the live challenge of the two_factor cookie (INVALID_TWO_FACTOR_COOKIE). */
export async function verificationContext(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession | null,
): Promise<VerificationContext> {
  if (session) return { kind: "session", user: session.user, session: session.session };
  const challengeId = readSignedCookie(c, ctx, twoFactorCookieNames(ctx).challenge);
  return { kind: "challenge", challenge: await readChallenge(ctx, challengeId) };
}

/** Who verifies: the signed-in user in the session context; nobody known yet in a challenge. */
export function verificationSource(c: Context, ctx: AuthContext, session: ResolvedSession | null): EventSource {
  return session ? requestSource(c, ctx, "user", session.user.id) : requestSource(c, ctx);
}

/**
 * What a code check needs from the request: the new session of a challenge completed here lasts as the
 * sign-in asked (rememberMe false: the browser session); who verifies, and from where.
 */
export function verificationRequest(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession | null,
): VerificationRequest {
  const origin = requestOrigin(c, ctx);
  return {
    sessionOptions: sessionOptionsFor(origin, rememberedChoice(c, ctx)),
    source: verificationSource(c, ctx, session),
    origin,
  };
}

/**
 * Cookies and answer of a verified factor. A completed sign-in sets its session cookie, drops the used
 * challenge and, with trustDevice, marks this browser trusted; a rotated session replaces the cookie.
 */
export async function answerVerification(
  c: Context,
  ctx: AuthContext,
  result: VerificationResult,
  trustThisDevice: boolean | undefined,
): Promise<TwoFactorVerification> {
  const user = toPublicUserWire(result.user);
  if (result.outcome === "unchanged") return result.session ? { token: result.session.token, user } : { user };
  const dontRemember = hasDontRememberCookie(c, ctx);
  setSessionCookies(c, ctx, { session: result.session, user: result.user }, { dontRemember });
  if (result.outcome === "signed-in") {
    const names = twoFactorCookieNames(ctx);
    clearCookie(c, ctx, names.challenge);
    if (trustThisDevice) {
      const value = await trustDevice(ctx, result.user.id, result.session.token);
      setSignedCookie(c, ctx, names.trustDevice, value, ctx.config.twoFactor.trustDeviceMaxAge);
      if (dontRemember) clearCookie(c, ctx, cookieNames(ctx).dontRemember);
    }
  }
  return { token: result.session.token, user };
}

/** One of the services' code checks, in the context and with the request verifySecondFactor gives it. */
export type CodeCheck = (context: VerificationContext, request: VerificationRequest) => Promise<VerificationResult>;

/**
 * One code check from start to answer, as the API's verify routes and the two-factor page both run it: the
 * context (the caller's session, else the two_factor cookie's challenge), the check itself (`check`, one of
 * the services' verifyTotp / verifyOtp / verifyBackupCode), then the cookies of its outcome.
 */
export async function verifySecondFactor(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession | null,
  check: CodeCheck,
  trustThisDevice: boolean | undefined,
): Promise<TwoFactorVerification> {
  const context = await verificationContext(c, ctx, session);
  const result = await check(context, verificationRequest(c, ctx, session));
  return answerVerification(c, ctx, result, trustThisDevice);
}

/**
 * Turn the caller's second factor off (a recent sign-in and the password, see disableTwoFactor) and put the
 * rotated session in the cookies: the API's disable route and the account page's form both run this.
 */
export async function disableCallersSecondFactor(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  password: string,
): Promise<void> {
  const source = requestSource(c, ctx, "user", session.user.id);
  const rotated = await disableTwoFactor(ctx, session, password, source);
  setSessionCookies(c, ctx, { session: rotated, user: { ...session.user, twoFactorEnabled: false } });
}
