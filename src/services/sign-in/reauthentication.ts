import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { type SignInResult, signIn } from "./pipeline.ts";
import type { SignInRequest, SignInStrategy } from "./strategy.ts";

// Re-authenticating (the account page, when a sensitive change finds the sign-in older than
// account.freshAge) is signing in again as the user who is signed in: the method's strategy and the whole
// pipeline (throttles, verified email, ban, second factor), and a new session whose createdAt is now. A
// credential that proves anyone else is refused before the gate: no session starts, the browser stays who
// it was, and the attempt is logged as a failed sign-in naming the account whose credential it was.

/** `strategy`, refusing with `refusal` a proof of any user but `userId`. */
export function forSignedInUser<Input, Refusal, Mismatch>(
  strategy: SignInStrategy<Input, Refusal>,
  userId: string,
  refusal: Mismatch,
): SignInStrategy<Input, Refusal | Mismatch> {
  return {
    ...strategy,
    async checkCredential(ctx, input, request) {
      const proof = await strategy.checkCredential(ctx, input, request);
      if (!proof.ok || proof.user.id === userId) return proof;
      return { ok: false, refusal, reason: "invalid_credentials", userId: proof.user.id };
    },
  };
}

/** Sign in again as `user` by `strategy`'s method: a session, a second-factor challenge, or a refusal. */
export function reauthenticate<Input, Refusal, Mismatch>(
  ctx: AuthContext,
  user: Pick<UserRow, "id">,
  strategy: SignInStrategy<Input, Refusal>,
  input: Input,
  request: SignInRequest,
  mismatch: Mismatch,
): Promise<SignInResult<Refusal | Mismatch>> {
  return signIn(ctx, forSignedInUser(strategy, user.id, mismatch), input, request);
}
