import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { isAuthError } from "../../errors.ts";
import { sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { LiveSession } from "../sessions/sessions.ts";
import { createChallenge } from "../two-factor/challenge.ts";
import { redeemTrustedDevice, trustDevice } from "../two-factor/trusted-devices.ts";
import { recordSignInFailure, type SignInAttempt, signInEvent } from "./events.ts";
import { assertNotBanned, sessionOptionsFor, startSession } from "./start-session.ts";
import type { SignInRequest } from "./strategy.ts";

// The gate every proven sign-in passes (the pipeline's methods, and a mailbox verified with auto sign-in):
// the ban rules, then the second factor, then the session and its sign_in event. A user with two-factor on
// gets a challenge instead of a session, unless this browser is trusted or the proof was a strong factor on
// its own (a passkey), or the operator let passwordless sign-ins skip it (twoFactor.skipForPasswordless).

export type SignInStep =
  | {
      kind: "session";
      session: LiveSession;
      /** The re-issued trust_device value, when the browser was trusted. */
      trust: string | null;
    }
  | { kind: "challenge"; challengeId: string };

export interface GatePolicy {
  /** No second factor is asked for (a strong factor, or a passwordless proof the operator lets skip it). */
  skipSecondFactor: boolean;
}

export function requiresSecondFactor(ctx: AuthContext, user: Pick<UserRow, "twoFactorEnabled">): boolean {
  return ctx.config.twoFactor.enabled && Boolean(user.twoFactorEnabled);
}

async function passGate(
  ctx: AuthContext,
  user: UserRow,
  attempt: SignInAttempt,
  request: SignInRequest,
  policy: GatePolicy,
): Promise<SignInStep> {
  const sessionOptions = {
    ...sessionOptionsFor(request, request.rememberMe),
    event: () => signInEvent(attempt, user.id, request),
  };
  if (policy.skipSecondFactor || !requiresSecondFactor(ctx, user))
    return { kind: "session", session: await startSession(ctx, user, sessionOptions), trust: null };
  assertNotBanned(ctx, user);
  if (await redeemTrustedDevice(ctx, user.id, request.trustedBrowser)) {
    const session = await startSession(ctx, user, sessionOptions);
    return { kind: "session", session, trust: await trustDevice(ctx, user.id, session.token) };
  }
  const challengeId = await createChallenge(ctx, user.id);
  await recordSecurityEvent(ctx, {
    type: "two_factor_challenged",
    outcome: "success",
    method: attempt.method,
    ...(attempt.provider ? { provider: attempt.provider } : {}),
    userId: user.id,
    source: sourceOf(request),
  });
  return { kind: "challenge", challengeId };
}

/** The gate for a proven user; a banned user's refusal is logged as a failed sign-in naming them. */
export async function admit(
  ctx: AuthContext,
  user: UserRow,
  attempt: SignInAttempt,
  request: SignInRequest,
  policy: GatePolicy,
): Promise<SignInStep> {
  try {
    return await passGate(ctx, user, attempt, request, policy);
  } catch (error) {
    if (isAuthError(error) && error.key === "BANNED_USER")
      await recordSignInFailure(ctx, attempt, "banned", request, user.id);
    throw error;
  }
}
