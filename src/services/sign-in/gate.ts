import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { isAuthError } from "../../errors.ts";
import { defineHook } from "../hooks.ts";
import type { LiveSession } from "../sessions/sessions.ts";
import { recordSignInFailure, type SignInAttempt, signInEvent } from "./events.ts";
import { sessionOptionsFor, startSession } from "./start-session.ts";
import type { SignInRequest } from "./strategy.ts";

// The gate every proven sign-in passes (the pipeline's methods, and a mailbox verified with auto sign-in):
// the ban rules, then the second factor, then the session and its sign_in event. A user with two-factor on
// gets a challenge instead of a session, unless this browser is trusted or the proof was a strong factor on
// its own (a passkey), or the operator let passwordless sign-ins skip it (twoFactor.skipForPasswordless).
// The second factor is a feature (services/two-factor/), so the gate asks it through the credentialPassed
// hook; the ban rules and the session are the core's.

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

/**
 * A sign-in proved its credential and asks for no exemption: the second factor answers null (the session
 * starts), or a step of its own: a challenge instead of a session, or a session it started through `start`
 * (a trusted browser). It enforces the ban itself before it answers a challenge.
 */
export type CredentialPassed = (
  ctx: AuthContext,
  user: UserRow,
  attempt: SignInAttempt,
  request: SignInRequest,
  start: () => Promise<LiveSession>,
) => Promise<SignInStep | null>;

export const credentialPassed = defineHook<CredentialPassed>("credentialPassed");

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
  const start = () => startSession(ctx, user, sessionOptions);
  const step = policy.skipSecondFactor ? null : await credentialPassed.handler()(ctx, user, attempt, request, start);
  return step ?? { kind: "session", session: await start(), trust: null };
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
