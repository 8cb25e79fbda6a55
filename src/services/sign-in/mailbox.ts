import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { isAuthError } from "../../errors.ts";
import { proveSignInCode, verifyEmailWithCode } from "../email-otp.ts";
import { redeemMagicLink } from "../magic-link.ts";
import { ownerOfProvenMailbox } from "../passwordless.ts";
import { sourceOf } from "../request-origin.ts";
import { recordMailboxProof } from "./events.ts";
import { admit, type SignInStep } from "./gate.ts";
import type { SignInRequest, SignInStrategy } from "./strategy.ts";

// Signing in by proving one reads a mailbox: following a magic link, typing an email code, or following a
// verification link with auto sign-in on. The mailbox's user is theirs (created when sign-up that way is
// allowed); the proof's own events (a sign-up, an address verified) are recorded before the gate.

/** A refused link, as the redirect's ?error= names it. */
export type MagicLinkRefusal = "INVALID_TOKEN" | "EXPIRED_TOKEN" | "new_user_signup_disabled";

export const magicLinkStrategy: SignInStrategy<{ token: string }, MagicLinkRefusal> = {
  attempt: () => ({ method: "magic-link" }),
  passwordless: true,
  checkCredential: async (ctx, input, request) => {
    const link = await redeemMagicLink(ctx, input.token);
    if (!link.ok) return { ok: false, refusal: link.failure, reason: "invalid_token" };
    const allowSignUp = !ctx.config.magicLink.disableSignUp;
    const proof = { method: "magic-link", source: sourceOf(request) } as const;
    const owner = await ownerOfProvenMailbox(ctx, link.email, link.name, allowSignUp, proof);
    if (!owner) return { ok: false, refusal: "new_user_signup_disabled", reason: "signup_disabled" };
    await recordMailboxProof(ctx, owner, "magic-link", request);
    return { ok: true, user: owner.user, isNewUser: owner.isNewUser };
  },
};

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

/** A verification link just followed (the address is verified): the user it verified signs in. */
export const verificationLinkStrategy: SignInStrategy<{ user: UserRow }> = {
  attempt: () => ({ method: "email-verification" }),
  checkCredential: async (_ctx, input) => ({ ok: true, user: input.user }),
};
