import type { ErrorKey } from "../../errors.ts";
import { isAuthError } from "../../errors.ts";
import { sourceOf } from "../request-origin.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import type { SignInStrategy } from "../sign-in/strategy.ts";
import { verifyAuthentication } from "./authentication.ts";

// Signing in with a passkey: the assertion is checked against the challenge this browser holds (used up
// whatever happens). A passkey proves possession of the authenticator (and, with user verification, the
// person): a strong factor, so the gate asks for no second one.

export interface PasskeyAssertion {
  /** The challenge handle of this browser's cookie, or null. */
  handle: string | null;
  response: Record<string, unknown>;
}

const PASSKEY_REFUSALS: Partial<Record<ErrorKey, SignInFailureReason>> = {
  SIGN_IN_PASSKEY_NOT_FOUND: "passkey_not_found",
  AUTHENTICATION_FAILED: "assertion_refused",
  CHALLENGE_NOT_FOUND: "invalid_token",
};

export const passkeyStrategy: SignInStrategy<PasskeyAssertion> = {
  attempt: () => ({ method: "passkey", strongFactor: true }),
  checkCredential: async (ctx, input, request) => {
    const proof = await verifyAuthentication(ctx, input.handle, input.response, sourceOf(request));
    return { ok: true, user: proof.user };
  },
  failureReason: (error) => (isAuthError(error) ? PASSKEY_REFUSALS[error.key] : undefined),
};
