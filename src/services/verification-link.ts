import type { AuthContext } from "../context.ts";
import type { UserRow } from "../db/schema.ts";
import { applyEmailChange } from "./email-change.ts";
import { readEmailVerificationToken, type VerifyEmailFailure } from "./email-verification.ts";
import { sourceOf } from "./request-origin.ts";
import { type SignInResult, signIn } from "./sign-in/pipeline.ts";
import type { SignInRequest } from "./sign-in/strategy.ts";
import { verificationLinkStrategy } from "./sign-in/verification-link.ts";
import { findUserByEmail, markEmailVerified } from "./users.ts";

// Following a mailed verification link (spec §4: GET /verify-email): the token verifies its address, or,
// holding `updateTo`, confirms an email change for the signed-in owner of the current address. With
// autoSignInAfterVerification a browser that is not signed in as the user is signed in through the
// pipeline. The API route and the verify-email page both call this and only render the outcome.

/** Why a link did nothing: the spec's ?error= codes, or a confirmed change whose new address was taken meanwhile. */
export type VerificationLinkFailure = VerifyEmailFailure | "COULDNT_UPDATE_YOUR_EMAIL";

export type VerificationLinkOutcome =
  | { kind: "failed"; failure: VerificationLinkFailure }
  /** The address changed; `user` is the changed user, for the signed-in session's cached data. */
  | { kind: "email-changed"; user: UserRow }
  | {
      kind: "verified";
      /** The sign-in that followed (auto sign-in, not signed in as the user yet), to set its cookies. */
      signedIn: SignInResult<never> | null;
      /** The signed-in user as verified, when the browser is signed in as them: its cached data to refresh. */
      sessionUser: UserRow | null;
    };

export interface VerificationLinkInput {
  token: string;
  /** Where the flow ends; the new address's own verification mail (after a change) leads there too. */
  callbackURL?: string;
  /** The user of the session that followed the link, if any. */
  signedInUser: UserRow | null;
}

async function confirmEmailChange(
  ctx: AuthContext,
  user: UserRow,
  updateTo: string,
  input: VerificationLinkInput,
  request: SignInRequest,
): Promise<VerificationLinkOutcome> {
  // An email change is confirmed by the signed-in owner of the current address only, and only while
  // changing addresses is enabled (turning it off also voids links already mailed).
  if (input.signedInUser?.id !== user.id || !ctx.config.changeEmail.enabled)
    return { kind: "failed", failure: "unauthorized" };
  const source = sourceOf(request, "user", user.id);
  const changed = await applyEmailChange(ctx, user, updateTo, input.callbackURL, source);
  if (!changed) return { kind: "failed", failure: "COULDNT_UPDATE_YOUR_EMAIL" };
  return { kind: "email-changed", user: changed };
}

export async function followVerificationLink(
  ctx: AuthContext,
  input: VerificationLinkInput,
  request: SignInRequest,
): Promise<VerificationLinkOutcome> {
  const read = await readEmailVerificationToken(ctx, input.token);
  if (!read.ok) return { kind: "failed", failure: read.failure };
  const user = await findUserByEmail(ctx, read.claims.email);
  if (!user) return { kind: "failed", failure: "user_not_found" };
  if (read.claims.updateTo) return confirmEmailChange(ctx, user, read.claims.updateTo, input, request);

  const flipped = await markEmailVerified(ctx, user.id, {
    type: "email_verified",
    outcome: "success",
    method: "link",
    userId: user.id,
    source: sourceOf(request, "user", user.id),
  });
  const verifiedUser = { ...user, emailVerified: true };
  const current = input.signedInUser?.id === user.id ? input.signedInUser : null;
  if (flipped && ctx.config.emailVerification.autoSignInAfterVerification) {
    if (current) return { kind: "verified", signedIn: null, sessionUser: verifiedUser };
    const signedIn = await signIn(ctx, verificationLinkStrategy, { user: verifiedUser }, request);
    return { kind: "verified", signedIn, sessionUser: null };
  }
  return { kind: "verified", signedIn: null, sessionUser: current ? { ...current, emailVerified: true } : null };
}
