import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import type { ErrorKey } from "../../errors.ts";
import type { RequestOrigin } from "../request-origin.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import type { SignInAttempt } from "./events.ts";

// One way of proving who one is (a password, a passkey, a magic link, an email code, a provider, an imported
// hash later) is a strategy: it identifies the user and checks the credential, and says how the shared gate
// treats its proof. Everything after the proof is the pipeline's (pipeline.ts), the same for every method.

/** What a sign-in needs from the request, as a plain value (no request object reaches the services). */
export interface SignInRequest extends RequestOrigin {
  /** false: a browser-session cookie (the session ends with the browser); undefined: the configured default. */
  rememberMe: boolean | undefined;
  /** The verified trust_device cookie's value, if the request carries one. */
  trustedBrowser: string | null;
}

/**
 * A checked credential: the proven user (created just now, for a mailbox or a provider that signs up), or a
 * refusal the front end renders (an error key, a redirect code) with the security log's reason for it and
 * the user the attempt named, if any.
 */
export type CredentialCheck<Refusal> =
  | { ok: true; user: UserRow; isNewUser?: boolean }
  | { ok: false; refusal: Refusal; reason: SignInFailureReason; userId?: string | null };

export interface SignInStrategy<Input, Refusal = never> {
  /** How the attempt is named in the security log (method, provider; strongFactor: no second factor asked). */
  attempt(input: Input): SignInAttempt;
  /**
   * Identify the user and check the credential, in the order the method's timing rules need (a password:
   * the account throttle counts before the lookup, and an unknown user costs a dummy hash). A refusal the
   * method answers as an error may be thrown: `failureReason` names it for the log (undefined: not logged).
   */
  checkCredential(ctx: AuthContext, input: Input, request: SignInRequest): Promise<CredentialCheck<Refusal>>;
  failureReason?(error: unknown): SignInFailureReason | undefined;
  /** A mailbox proof (magic link, email code): skips the second factor when twoFactor.skipForPasswordless. */
  passwordless?: boolean;
  /**
   * The password methods obey emailAndPassword.requireEmailVerification: an unverified user is refused with
   * `refusal` (logged as email_not_verified) after `remind` has mailed a link, as the method does.
   */
  verifiedEmail?: { refusal: ErrorKey; remind(ctx: AuthContext, user: UserRow, input: Input): Promise<void> };
}
