import type { AuthContext } from "../context.ts";
import { signHS256, verifyHS256 } from "../crypto/jwt.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { isValidEmail, normalizeEmail } from "./email-address.ts";
import { defineHook } from "./hooks.ts";

// Verification tokens are HS256 JWTs holding the email (and, for an email change, the new address);
// nothing is stored, so they cannot be listed or leaked from the database. They are checked under the current
// secret only, never AUTH_SECRET_PREVIOUS: the signature is the whole proof, and the previous secret may be the
// leaked one the rotation is about. A link mailed before a rotation fails as invalid; the user asks for another.

export interface VerificationClaims {
  email: string;
  updateTo?: string;
  requestType?: "change-email-confirmation" | "change-email-verification";
}

export async function createEmailVerificationToken(
  ctx: AuthContext,
  claims: VerificationClaims,
  expiresIn = ctx.config.emailVerification.expiresIn,
): Promise<string> {
  return signHS256(ctx.secret, { ...claims, email: claims.email.toLowerCase() }, expiresIn);
}

export function verificationLink(ctx: AuthContext, token: string, callbackURL?: string): string {
  return `${ctx.apiURL}/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(callbackURL || ctx.appURL)}`;
}

/**
 * A code the verification mail carries beside its link, for a person who would rather type it (the link
 * opened on another device, a scanner that spent it): the email-code feature answers one while it is on,
 * else null.
 */
export const verificationMailCode =
  defineHook<(ctx: AuthContext, email: string) => Promise<{ code: string; expiresIn: number } | null>>(
    "verificationMailCode",
  );

/** Mail a verification link (and, with email codes on, a code) to the user's address (in the background). */
export async function sendVerificationEmail(
  ctx: AuthContext,
  user: Pick<UserRow, "email" | "name">,
  callbackURL?: string,
): Promise<void> {
  const token = await createEmailVerificationToken(ctx, { email: user.email });
  const code = await verificationMailCode.handler()(ctx, user.email);
  ctx.sendMail({
    kind: "verify-email",
    to: user.email,
    values: {
      name: user.name,
      email: user.email,
      link: verificationLink(ctx, token, callbackURL),
      linkExpiresIn: ctx.config.emailVerification.expiresIn,
      code: code?.code ?? null,
      codeExpiresIn: code?.expiresIn ?? null,
    },
  });
}

/**
 * A signed-in user asking for their verification link again: VERIFICATION_EMAIL_ALREADY_VERIFIED once the
 * address is verified, VERIFICATION_EMAIL_NOT_YOURS when `asked` names another address.
 */
export async function resendOwnVerificationEmail(
  ctx: AuthContext,
  user: UserRow,
  asked: string,
  callbackURL?: string,
): Promise<void> {
  if (user.emailVerified) throw new AuthError("VERIFICATION_EMAIL_ALREADY_VERIFIED");
  if (user.email !== normalizeEmail(asked)) throw new AuthError("VERIFICATION_EMAIL_NOT_YOURS");
  await sendVerificationEmail(ctx, user, callbackURL);
}

/** The verify-email error codes of the spec, redirected to the callback or answered as 401. */
export type VerifyEmailFailure = "token_expired" | "invalid_token" | "user_not_found" | "unauthorized";

export type ReadVerificationResult =
  | { ok: true; claims: VerificationClaims }
  | { ok: false; failure: VerifyEmailFailure };

/** Check a verification token's signature, expiry and payload (which must hold a valid email). */
export async function readEmailVerificationToken(ctx: AuthContext, token: string): Promise<ReadVerificationResult> {
  const verified = await verifyHS256<Record<string, unknown>>(ctx.secret, token);
  if (!verified.ok) return { ok: false, failure: verified.reason === "expired" ? "token_expired" : "invalid_token" };
  const { email, updateTo } = verified.payload;
  if (typeof email !== "string" || !isValidEmail(email)) return { ok: false, failure: "invalid_token" };
  if (updateTo !== undefined && (typeof updateTo !== "string" || !isValidEmail(updateTo)))
    return { ok: false, failure: "invalid_token" };
  return { ok: true, claims: { email, updateTo } };
}
