import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { sourceOf } from "../request-origin.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { CredentialPassed } from "../sign-in/gate.ts";
import { assertNotBanned } from "../sign-in/start-session.ts";
import { createChallenge } from "./challenge.ts";
import { redeemTrustedDevice, trustDevice } from "./trusted-devices.ts";

// The second factor's answer at the sign-in gate (services/sign-in/gate.ts, the credentialPassed hook): a
// user with two-factor on gets a challenge instead of a session, unless this browser is trusted.

export function requiresSecondFactor(ctx: AuthContext, user: Pick<UserRow, "twoFactorEnabled">): boolean {
  return ctx.config.twoFactor.enabled && Boolean(user.twoFactorEnabled);
}

export const askSecondFactor: CredentialPassed = async (ctx, user, attempt, request, start) => {
  if (!requiresSecondFactor(ctx, user)) return null;
  assertNotBanned(ctx, user);
  if (await redeemTrustedDevice(ctx, user.id, request.trustedBrowser)) {
    const session = await start();
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
};
