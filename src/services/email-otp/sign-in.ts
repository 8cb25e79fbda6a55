import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { isAuthError } from "../../errors.ts";
import { sourceOf } from "../request-origin.ts";
import { recordMailboxProof } from "../sign-in/events.ts";
import { admit, type SignInStep } from "../sign-in/gate.ts";
import type { SignInRequest, SignInStrategy } from "../sign-in/strategy.ts";
import { proveSignInCode, verifyEmailWithCode } from "./email-otp.ts";

// Signing in by typing an email code, and verifying an address with one (signed in after when
// autoSignInAfterVerification is on). The mailbox's user is theirs (created when sign-up that way is
// allowed); the proof's own events (a sign-up, an address verified) are recorded before the gate.

export const emailCodeStrategy: SignInStrategy<{ email: string; otp: string }> = {
  attempt: () => ({ method: "email-otp" }),
  passwordless: true,
  checkCredential: async (ctx, input, request) => {
    const owner = await proveSignInCode(ctx, input.email, input.otp, sourceOf(request));
    await recordMailboxProof(ctx, owner, "email-otp", request);
    return { ok: true, user: owner.user, isNewUser: owner.isNewUser };
  },
  // Any refusal of the code is a failed sign-in; a throttled one (429) says so.
  failureReason: (error) => (isAuthError(error) && error.key === "TOO_MANY_REQUESTS" ? "throttled" : "invalid_code"),
};

/** A verified address, and the sign-in that followed it when auto sign-in after verification is on. */
export interface VerifiedMailbox {
  user: UserRow;
  signedIn: SignInStep | null;
}

/**
 * Verify an address with an email-verification code; with autoSignInAfterVerification the user is signed in
 * through the gate like an email-code sign-in (a challenge instead of a session when two-factor is on).
 */
export async function verifyEmailCodeAndSignIn(
  ctx: AuthContext,
  input: { email: string; otp: string },
  request: SignInRequest,
): Promise<VerifiedMailbox> {
  const { user, verifiedNow } = await verifyEmailWithCode(ctx, input.email, input.otp, sourceOf(request));
  await recordMailboxProof(ctx, { user, verifiedNow, isNewUser: false }, "email-otp", request);
  if (!ctx.config.emailVerification.autoSignInAfterVerification) return { user, signedIn: null };
  const skipSecondFactor = ctx.config.twoFactor.skipForPasswordless;
  return { user, signedIn: await admit(ctx, user, { method: "email-otp" }, request, { skipSecondFactor }) };
}
