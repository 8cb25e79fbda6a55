import * as z from "zod";
import { AuthError } from "../errors.ts";

// What counts as an email address, and the one form it is stored and looked up in. Sign-up, sign-in, the
// admin's create-user, `authd create-user` and the verification tokens all apply these rules, so an
// address one of them accepts is the same account for all of them (a second spelling of one mailbox
// would be a second account, and a way around every per-account limit).

const EMAIL = z.email();

// The email-OTP routes check the spec's own, narrower pattern (send-verification-otp, verify-email).
const OTP_EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

/** The stored form of an address: without surrounding spaces, in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return EMAIL.safeParse(email).success;
}

/** The address in its stored form when it is a valid one; null otherwise. */
export function parseEmail(text: string): string | null {
  const email = normalizeEmail(text);
  return isValidEmail(email) ? email : null;
}

/** parseEmail for a request: an invalid address is refused with INVALID_EMAIL. */
export function requireValidEmail(text: string): string {
  const email = parseEmail(text);
  if (email === null) throw new AuthError("INVALID_EMAIL");
  return email;
}

export function assertOtpEmail(email: string): void {
  if (!OTP_EMAIL_PATTERN.test(email)) throw new AuthError("INVALID_EMAIL");
}
