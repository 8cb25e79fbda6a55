import * as z from "zod";
import { PublicUserSchema } from "./user.ts";

// Two-factor on the wire (Better Auth's twoFactor plugin).

/** A sign-in that needs the second factor: the two_factor cookie is set, no session yet. */
export const TwoFactorRedirectSchema = z.object({ twoFactorRedirect: z.literal(true) });
export type TwoFactorRedirect = z.output<typeof TwoFactorRedirectSchema>;

/** /two-factor/enable: the authenticator URI and the backup codes, shown once. */
export const TwoFactorEnrollmentSchema = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });
export type TwoFactorEnrollment = z.output<typeof TwoFactorEnrollmentSchema>;

export const TotpURISchema = z.object({ totpURI: z.string() });

/** A successful verification: the session's token (absent for a backup code checked without one) and the user. */
export const TwoFactorVerificationSchema = z.object({ token: z.string().optional(), user: PublicUserSchema });
export type TwoFactorVerification = z.output<typeof TwoFactorVerificationSchema>;

export const BackupCodesSchema = z.object({ status: z.boolean(), backupCodes: z.array(z.string()) });
export type BackupCodes = z.output<typeof BackupCodesSchema>;
