import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { recordSignInFailure } from "./events.ts";
import { admit, type SignInStep } from "./gate.ts";
import type { CredentialCheck, SignInRequest, SignInStrategy } from "./strategy.ts";

// The one sign-in pipeline: identify and check the credential (the method's strategy) → the gate (email
// verification for password methods, ban, second factor with trusted browsers) → start the session → record
// the sign_in event; every refusal on the way is recorded as a failed sign-in. The front ends only turn the
// request into a SignInRequest and the result into an answer (cookies, a body, a redirect).

/** The method's refusal (none for a method that only throws), or the gate's step for the proven user. */
export type SignInResult<Refusal> =
  | ([Refusal] extends [never] ? never : { kind: "refused"; refusal: Refusal })
  | (SignInStep & { user: UserRow; isNewUser: boolean });

async function checkRecorded<Input, Refusal>(
  ctx: AuthContext,
  strategy: SignInStrategy<Input, Refusal>,
  input: Input,
  request: SignInRequest,
): Promise<CredentialCheck<Refusal>> {
  try {
    return await strategy.checkCredential(ctx, input, request);
  } catch (error) {
    const reason = strategy.failureReason?.(error);
    if (reason) await recordSignInFailure(ctx, strategy.attempt(input), reason, request);
    throw error;
  }
}

/** The password methods' rule: no sign-in for an unverified address while verification is required. */
async function assertVerifiedEmail<Input, Refusal>(
  ctx: AuthContext,
  strategy: SignInStrategy<Input, Refusal>,
  input: Input,
  user: UserRow,
  request: SignInRequest,
): Promise<void> {
  const rule = strategy.verifiedEmail;
  if (!rule || !ctx.config.emailAndPassword.requireEmailVerification || user.emailVerified) return;
  await recordSignInFailure(ctx, strategy.attempt(input), "email_not_verified", request, user.id);
  await rule.remind(ctx, user, input);
  throw new AuthError(rule.refusal);
}

/** Sign in by `strategy`'s method: a session, a second-factor challenge, or the method's refusal. */
export async function signIn<Input, Refusal>(
  ctx: AuthContext,
  strategy: SignInStrategy<Input, Refusal>,
  input: Input,
  request: SignInRequest,
): Promise<SignInResult<Refusal>> {
  const attempt = strategy.attempt(input);
  const proof = await checkRecorded(ctx, strategy, input, request);
  if (!proof.ok) {
    await recordSignInFailure(ctx, attempt, proof.reason, request, proof.userId ?? null);
    // A method without refusal values never gets here (its CredentialCheck<never> cannot be a refusal).
    const refused = { kind: "refused", refusal: proof.refusal } as const;
    return refused as SignInResult<Refusal>;
  }
  await assertVerifiedEmail(ctx, strategy, input, proof.user, request);
  const skipSecondFactor =
    attempt.strongFactor === true || (strategy.passwordless === true && ctx.config.twoFactor.skipForPasswordless);
  const step = await admit(ctx, proof.user, attempt, request, { skipSecondFactor });
  return { ...step, user: proof.user, isNewUser: proof.isNewUser === true };
}
