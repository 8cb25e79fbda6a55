import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { type RequestOrigin, sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { SignInAttempt } from "../sign-in/events.ts";
import type { CredentialPassed } from "../sign-in/gate.ts";
import { assertNotBanned } from "../sign-in/start-session.ts";
import { createChallenge } from "./challenge.ts";
import { redeemTrustedDevice, trustDevice } from "./trusted-devices.ts";

// The second factor's answer at the sign-in gate (services/sign-in/gate.ts, the credentialPassed hook): a
// user with two-factor on gets a challenge instead of a session, unless this browser is trusted.

export function requiresSecondFactor(ctx: AuthContext, user: Pick<UserRow, "twoFactorEnabled">): boolean {
  return ctx.config.twoFactor.enabled && Boolean(user.twoFactorEnabled);
}

/** A challenge for `user`, whose first step was `attempt`; its id goes in the two_factor cookie. */
async function challenge(ctx: AuthContext, user: UserRow, attempt: SignInAttempt, origin: RequestOrigin) {
  const challengeId = await createChallenge(ctx, user.id);
  await recordSecurityEvent(ctx, {
    type: "two_factor_challenged",
    outcome: "success",
    method: attempt.method,
    ...(attempt.provider ? { provider: attempt.provider } : {}),
    userId: user.id,
    source: sourceOf(origin),
  });
  return challengeId;
}

export const askSecondFactor: CredentialPassed = async (ctx, user, attempt, request, start) => {
  if (!requiresSecondFactor(ctx, user)) return null;
  assertNotBanned(ctx, user);
  if (await redeemTrustedDevice(ctx, user.id, request.trustedBrowser)) {
    const session = await start();
    return { kind: "session", session, trust: await trustDevice(ctx, user.id, session.token) };
  }
  return { kind: "challenge", challengeId: await challenge(ctx, user, attempt, request) };
};

/**
 * Re-authenticating by the second factor (the account page, for an account without a password): the
 * signed-in user is challenged as after a first factor, with no trusted browser to skip it (the code is the
 * whole proof), and the second-factor page completes the challenge with a new session. Logged as a
 * challenge of method `two-factor`. TOTP_NOT_ENABLED for a user without two-factor.
 */
export async function challengeSignedInUser(ctx: AuthContext, user: UserRow, origin: RequestOrigin): Promise<string> {
  if (!requiresSecondFactor(ctx, user)) throw new AuthError("TOTP_NOT_ENABLED");
  assertNotBanned(ctx, user);
  return challenge(ctx, user, { method: "two-factor" }, origin);
}
