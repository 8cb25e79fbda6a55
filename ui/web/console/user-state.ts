import type { ConsoleFrame } from "./frame-state.ts";

// A user's detail screen (/console/users/:id): everything an operator sees about one user and the forms
// that act on them. Plain JSON, dates as ISO strings, like every page's state.

export interface ConsoleUserProfile {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  username: string | null;
  role: string | null;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConsoleUserSession {
  id: string;
  createdAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The administrator who opened it by impersonation, if one did. */
  impersonatedBy: string | null;
}

export interface ConsoleUserApiKey {
  id: string;
  name: string | null;
  /** The key's first characters, to tell it apart (never the key). */
  start: string | null;
  enabled: boolean;
  remaining: number | null;
  refillAmount: number | null;
  /** Milliseconds between refills. */
  refillInterval: number | null;
  rateLimitEnabled: boolean;
  rateLimitMax: number | null;
  rateLimitTimeWindow: number | null;
  /** "files:read,write; reports:read", or null for none. */
  permissions: string | null;
  expiresAt: string | null;
  lastRequest: string | null;
  createdAt: string;
}

export interface ConsoleUserEvent {
  id: string;
  type: string;
  outcome: "success" | "failure";
  createdAt: string;
  actorType: string;
  actorId: string | null;
  ip: string | null;
  /** The event's details on one line (`name=value …`). */
  details: string;
}

/** Which parts of the screen this deployment has (a feature that is off has no section). */
export interface ConsoleUserFeatures {
  apiKeys: boolean;
  passkeys: boolean;
  twoFactor: boolean;
  passwords: boolean;
  organizations: boolean;
}

export interface ConsoleUserState {
  page: "console-user";
  console: ConsoleFrame;
  user: ConsoleUserProfile;
  features: ConsoleUserFeatures;
  sessions: ConsoleUserSession[];
  accounts: { id: string; providerId: string; accountId: string; createdAt: string }[];
  organizations: { organizationId: string; name: string; slug: string; role: string }[];
  apiKeys: ConsoleUserApiKey[];
  passkeys: { id: string; name: string | null; deviceType: string; backedUp: boolean; createdAt: string | null }[];
  secondFactor: { enabled: boolean; backupCodes: number; trustedBrowsers: number } | null;
  events: ConsoleUserEvent[];
  eventsPage: { offset: number; limit: number; total: number };
  /** The impersonation form's choices of duration, in seconds (the longest is the configured limit). */
  impersonationDurations: number[];
  /** The roles the role form offers. */
  roles: string[];
  /** A key just issued: shown this once, in full. */
  issuedKey: { id: string; key: string } | null;
}
