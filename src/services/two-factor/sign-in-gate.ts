import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { type EventSource, recordSecurityEvent, type SignInMethod } from "../security-events.ts";
import type { CreateSessionOptions, LiveSession } from "../sessions/sessions.ts";
import { assertNotBanned, startSession } from "../sign-in.ts";
import { createChallenge } from "./challenge.ts";
import { redeemTrustedDevice, trustDevice } from "./trusted-devices.ts";

// The one place a sign-in becomes a session or a two-factor challenge. Every way of proving who one is
// (password by email or username, a provider, a verification link, a magic link, an email code, a passkey)
// comes through here after its own checks; a user with two-factor on gets a challenge instead of a session,
// unless this browser is trusted or the proof was a strong factor on its own (a passkey).

export type SignInStep =
  | {
      kind: "session";
      session: LiveSession /** The re-issued trust_device value, when the browser was trusted. */;
      trust: string | null;
    }
  | { kind: "challenge"; challengeId: string };

export interface SignInStepInput {
  method: SignInMethod;
  provider?: string;
  /** No second factor is asked for: the proof was a strong factor on its own (a passkey), or the operator let
   * passwordless sign-ins skip it (twoFactor.skipForPasswordless). */
  skipSecondFactor?: boolean;
  sessionOptions: CreateSessionOptions;
  /** The verified trust_device cookie's value, if the request carries one. */
  trustCookie: string | null;
  source: EventSource;
}

export function requiresSecondFactor(ctx: AuthContext, user: Pick<UserRow, "twoFactorEnabled">): boolean {
  return ctx.config.twoFactor.enabled && Boolean(user.twoFactorEnabled);
}

export async function completeSignIn(ctx: AuthContext, user: UserRow, input: SignInStepInput): Promise<SignInStep> {
  if (input.skipSecondFactor || !requiresSecondFactor(ctx, user))
    return { kind: "session", session: await startSession(ctx, user, input.sessionOptions), trust: null };
  assertNotBanned(ctx, user);
  if (await redeemTrustedDevice(ctx, user.id, input.trustCookie)) {
    const session = await startSession(ctx, user, input.sessionOptions);
    return { kind: "session", session, trust: await trustDevice(ctx, user.id, session.token) };
  }
  const challengeId = await createChallenge(ctx, user.id);
  await recordSecurityEvent(ctx, {
    type: "two_factor_challenged",
    outcome: "success",
    method: input.method,
    ...(input.provider ? { provider: input.provider } : {}),
    userId: user.id,
    source: input.source,
  });
  return { kind: "challenge", challengeId };
}
