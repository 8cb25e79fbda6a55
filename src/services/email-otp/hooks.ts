import type { AuthContext } from "../../context.ts";
import { verificationMailCode } from "../email-verification.ts";
import { createCode } from "./codes.ts";

// What email codes do when the core calls (services/hooks.ts): registered once by src/features.ts.

/**
 * While email codes are on, the verification mail carries an email-verification code beside its link
 * (replacing any code of that kind the address had), so the person can type it on
 * /account/verify-email/code or in an app through POST /email-otp/verify-email instead.
 */
async function codeForVerificationMail(ctx: AuthContext, email: string) {
  if (!ctx.config.emailOTP.enabled) return null;
  return { code: await createCode(ctx, email, "email-verification"), expiresIn: ctx.config.emailOTP.expiresIn };
}

export function registerEmailOtpHooks(): void {
  verificationMailCode.register(codeForVerificationMail);
}
