import type { Post } from "./route-shapes.ts";
import type { PublicUser, Status, User } from "./types.ts";

// Two-factor (Better Auth's twoFactorClient): client.twoFactor.enable(...), verifyTotp(...), … and how a
// sign-in that stops at the second factor looks: `{ twoFactorRedirect: true }` in place of a session.

/** A sign-in answered with this set the two-factor cookie, not a session: ask for a code next. */
export interface TwoFactorRedirect {
  twoFactorRedirect: true;
}

/** A verified code: the session's token (none for a backup code checked with disableSession) and the user. */
export interface TwoFactorVerification {
  token?: string;
  user: PublicUser;
}

export interface BackupCodes {
  status: boolean;
  backupCodes: string[];
}

type Code = { code: string; trustDevice?: boolean };

export interface TwoFactorRoutes {
  "/two-factor/enable": Post<{ password: string; issuer?: string }, { totpURI: string; backupCodes: string[] }>;
  "/two-factor/disable": Post<{ password: string }, Status>;
  "/two-factor/get-totp-uri": Post<{ password: string }, { totpURI: string }>;
  "/two-factor/verify-totp": Post<Code, TwoFactorVerification>;
  "/two-factor/send-otp": Post<{ trustDevice?: boolean }, Status>;
  "/two-factor/verify-otp": Post<Code, TwoFactorVerification>;
  "/two-factor/verify-backup-code": Post<Code & { disableSession?: boolean }, TwoFactorVerification>;
  "/two-factor/generate-backup-codes": Post<{ password: string }, BackupCodes>;
  /** Server only (the server token). */
  "/two-factor/view-backup-codes": Post<{ userId: string }, BackupCodes>;
  /** Server only (the server token). */
  "/totp/generate": Post<{ secret: string }, { code: string }>;
  "/admin/reset-two-factor": Post<{ userId: string }, { user: User }>;
}

export const TWO_FACTOR_METHODS = {
  "/two-factor/enable": "POST",
  "/two-factor/disable": "POST",
  "/two-factor/get-totp-uri": "POST",
  "/two-factor/verify-totp": "POST",
  "/two-factor/send-otp": "POST",
  "/two-factor/verify-otp": "POST",
  "/two-factor/verify-backup-code": "POST",
  "/two-factor/generate-backup-codes": "POST",
  "/two-factor/view-backup-codes": "POST",
  "/totp/generate": "POST",
  "/admin/reset-two-factor": "POST",
} as const satisfies { [P in keyof TwoFactorRoutes]: TwoFactorRoutes[P]["method"] };

/** Whether an answer is a sign-in stopped at the second factor. */
export function isTwoFactorRedirect(data: unknown): data is TwoFactorRedirect {
  return typeof data === "object" && data !== null && (data as Partial<TwoFactorRedirect>).twoFactorRedirect === true;
}

/** Paths whose success completes a pending second factor (or drops it). */
export function endsTwoFactorPending(path: string): boolean {
  return path.startsWith("/two-factor/verify-") || path === "/sign-out";
}
