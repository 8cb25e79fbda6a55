// The account page's part of the pages' state (state.ts): its sections, the frame around each, and what
// each section lists. Plain JSON, like the rest.

/** The account page's sections, in the order its navigation lists them; each is a page of its own. */
export const ACCOUNT_SECTIONS = [
  "profile",
  "password",
  "second-factor",
  "passkeys",
  "sessions",
  "linked-accounts",
  "api-keys",
  "organizations",
  "activity",
  "delete",
] as const;
export type AccountSection = (typeof ACCOUNT_SECTIONS)[number];

/** A section's path under the pages' base path: the profile is the account page itself (`/account`). */
export const accountSectionPath = (section: AccountSection): string => (section === "profile" ? "" : `/${section}`);

/** What every section of the account page shows around its content: who is signed in, and where to go. */
export interface AccountFrame {
  user: { name: string; email: string; image: string | null };
  /** The sections this deployment offers (a feature that is off has none), in navigation order. */
  sections: AccountSection[];
  /** What the last action did, as a catalogue key (shown once, after the 303 that followed it). */
  notice: string | null;
}
/** One of the user's linked accounts: a social provider's (by the provider's name), or the password ("credential"). */
export interface LinkedAccountView {
  providerId: string;
  /** The account's id at the provider: unlinking names it. */
  accountId: string;
  name: string;
  createdAt: string;
}

/** One of the user's API keys, without its secret: `start` is the key's first characters, to tell keys apart. */
export interface ApiKeyView {
  id: string;
  name: string | null;
  start: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  enabled: boolean;
}

/** What a user may set on a key of their own (permissions and limits are the server's to set). */
export interface ApiKeyRules {
  name: { min: number; max: number; required: boolean };
  /** The expiries offered, in days (none when custom expiries are off); a key without one gets the default. */
  expiryDays: number[];
  /** The default expiry in days, or null: the key never expires unless one is chosen. */
  defaultExpiryDays: number | null;
}

export interface MembershipView {
  organizationId: string;
  name: string;
  role: string;
  /** The organization is this session's active one. */
  active: boolean;
}

/** An invitation the user can answer now. */
export interface InvitationView {
  id: string;
  organizationName: string;
  /** Null once the inviter has left the organization. */
  inviterEmail: string | null;
  role: string;
  expiresAt: string;
}

/** A security event about the user, as the activity list shows it. */
export interface ActivityEntry {
  id: string;
  type: string;
  outcome: "success" | "failure";
  createdAt: string;
  ip: string | null;
  userAgent: string | null;
  /** Done by an administrator, the server or the operator's command line, not by the user. */
  byOperator: boolean;
}

/** A QR code drawn as one SVG path: `size` modules square (its quiet zone included), the dark ones in `path`. */
export interface QRDrawing {
  size: number;
  path: string;
}

/** The forms of the second-factor section, to tie a refusal to the one that was sent. */
export type SecondFactorForm = "enable" | "confirm" | "backup-codes" | "disable" | "forget-browser";

/** The second-factor section of the account page (/account/second-factor). */
export interface SecondFactorSection {
  enabled: boolean;
  /** The account has a password to confirm changes with (social and passwordless accounts have none). */
  hasPassword: boolean;
  /** A code by mail is offered at sign-in too (to the account's address). */
  mailedCodes: boolean;
  /** How many backup codes are left; null while two-factor is off. */
  backupCodesLeft: number | null;
  /** Browsers that skip the code at sign-in (ISO dates). */
  trustedBrowsers: { id: string; lastSignInAt: string; expiresAt: string; current: boolean }[];
  /** An enrolment just begun: only in the answer to the form that began it, never in a page load. */
  enrolment: { uri: string; qr: QRDrawing; secret: string; backupCodes: string[] } | null;
  /** Backup codes just made: only in the answer to the form that made them. */
  newBackupCodes: string[] | null;
  /** The form a refusal (the page's `problem`) belongs to; null: the problem shows above the section. */
  failedForm: SecondFactorForm | null;
}

/** A passkey as the account page lists it (ISO dates; lastUsedAt null before its first sign-in). */
export interface PasskeyItem {
  id: string;
  name: string | null;
  createdAt: string | null;
  lastUsedAt: string | null;
}

/** The profile section: what the user can change about themselves, and their address's state. */
export interface AccountProfile {
  name: string;
  image: string | null;
  /** null while usernames are off. */
  username: string | null;
  email: string;
  emailVerified: boolean;
  /** changeEmail.enabled: the address can be changed here. */
  changeEmail: boolean;
  /** The language the user chose for the pages and mails, null for the browser's. */
  language: string | null;
}

/** One of the user's sessions as the sessions section lists it (the device is read from the user agent). */
export interface AccountSessionRow {
  /** What revoke-session takes (the stored hash of the token): a name for the session, not a credential. */
  handle: string;
  current: boolean;
  userAgent: string;
  ipAddress: string;
  createdAt: string;
  updatedAt: string;
}

/** The ways the signed-in user can prove who they are again, as their account and the configuration allow. */
export interface ReauthenticationMethods {
  password: boolean;
  /** Passkeys work on the pages and the user has one (offered once the page is live). */
  passkey: boolean;
  /** Two-factor is on and the account has no password. */
  secondFactor: boolean;
}

/** An image URL the profile takes: an absolute http(s) URL (authd stores no uploads). */
export function isProfileImageURL(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
  } catch {
    return false;
  }
}
