import type { AuthContext } from "../../context.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError, isAuthError } from "../../errors.ts";
import { provePassword, type ThrottleIdentifier } from "../account-throttle.ts";
import { sendVerificationEmail } from "../email-verification.ts";
import { checkPassword } from "../passwords.ts";
import { sourceOf } from "../request-origin.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import { assertValidUsername } from "../usernames.ts";
import { findUserByEmail, findUserByUsername } from "../users.ts";
import type { CredentialCheck, SignInRequest, SignInStrategy } from "./strategy.ts";

// Signing in with a password, by email or by username. The password is checked before anything else about
// the user is revealed (verification state, bans), and every failure to prove it answers alike.

/**
 * Prove a password for an email or a username, under the per-account throttle (TOO_MANY_REQUESTS once
 * the identifier's count is full, logged as coming from the request). Unknown users take as long as known
 * ones (a dummy hash is checked). A refusal names the user the identifier named, for the security log.
 */
async function provePasswordOf<Refusal>(
  ctx: AuthContext,
  identifier: ThrottleIdentifier,
  password: string,
  request: SignInRequest,
  refusal: Refusal,
): Promise<CredentialCheck<Refusal>> {
  let named: UserRow | undefined;
  const find = async () =>
    "email" in identifier
      ? await findUserByEmail(ctx, identifier.email)
      : await findUserByUsername(ctx, identifier.username);
  const check = async () => {
    named = await find();
    return (await checkPassword(ctx, named, password, request)) ? named : null;
  };
  const user = await provePassword(ctx, identifier, check, sourceOf(request));
  if (user) return { ok: true, user };
  return { ok: false, refusal, reason: "invalid_credentials", userId: named?.id ?? null };
}

/** A throttled attempt (429) is logged as a failed sign-in too. */
const throttled = (error: unknown): SignInFailureReason | undefined =>
  isAuthError(error) && error.key === "TOO_MANY_REQUESTS" ? "throttled" : undefined;

export interface EmailPasswordInput {
  /** Lower-cased and checked to be an address by the front end. */
  email: string;
  password: string;
  callbackURL?: string;
}

export const emailPasswordStrategy: SignInStrategy<EmailPasswordInput, "INVALID_EMAIL_OR_PASSWORD"> = {
  attempt: () => ({ method: "email" }),
  checkCredential: (ctx, input, request) =>
    provePasswordOf(ctx, { email: input.email }, input.password, request, "INVALID_EMAIL_OR_PASSWORD" as const),
  failureReason: throttled,
  verifiedEmail: {
    refusal: "EMAIL_NOT_VERIFIED",
    remind: async (ctx, user, input) => {
      if (ctx.config.emailVerification.sendOnSignUp) await sendVerificationEmail(ctx, user, input.callbackURL);
    },
  },
};

export interface UsernamePasswordInput {
  username: string;
  password: string;
  callbackURL?: string;
}

export const usernamePasswordStrategy: SignInStrategy<UsernamePasswordInput, "INVALID_USERNAME_OR_PASSWORD"> = {
  attempt: () => ({ method: "username" }),
  checkCredential: (ctx, input, request) => {
    if (!input.username || !input.password) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
    assertValidUsername(ctx, input.username);
    const refusal = "INVALID_USERNAME_OR_PASSWORD" as const;
    return provePasswordOf(ctx, { username: input.username }, input.password, request, refusal);
  },
  failureReason: throttled,
  verifiedEmail: {
    refusal: "USERNAME_EMAIL_NOT_VERIFIED",
    remind: (ctx, user, input) => sendVerificationEmail(ctx, user, input.callbackURL),
  },
};
