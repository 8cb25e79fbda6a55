import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { ImportedUserTable } from "./import-schema.ts";
import type * as OAuth from "./oauth-schema.ts";
import type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from "./webhook-schema.ts";

// Table types. Dates are epoch milliseconds (bigint on Postgres, integer on SQLite); booleans come back
// as 0/1 from SQLite and true/false from Postgres, so mappers read them with Boolean().

export type DbBoolean = boolean | number;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: DbBoolean;
  image: string | null;
  createdAt: number;
  updatedAt: number;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: DbBoolean | null;
  banReason: string | null;
  banExpires: number | null;
  additionalFields: string | null;
  /** Null for users who never turned two-factor on (as Better Auth leaves it). */
  twoFactorEnabled: DbBoolean | null;
  /** The language chosen for authd's pages and mails (one the catalogue ships), null to follow the browser. */
  language: string | null;
}

export interface SessionTable {
  id: string;
  /** SHA-256 (base64url) of the session token; the token itself is never stored. */
  tokenHash: string;
  userId: string;
  expiresAt: number;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: number;
  updatedAt: number;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: number | null;
  refreshTokenExpiresAt: number | null;
  scope: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface TwoFactorTable {
  id: string;
  /** The TOTP secret, encrypted with a key derived from the app secret (src/crypto/sealed.ts). */
  secret: string;
  /** The remaining backup codes as a JSON list, encrypted the same way. */
  backupCodes: string;
  userId: string;
  /** The newest TOTP step that completed a sign-in; a code of that step or an older one is refused. */
  lastUsedStep: number | null;
  createdAt: number;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  createdAt: number;
}

export interface MemberTable {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  teamId: string | null;
  createdAt: number;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface InvitationTable {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  teamId: string | null;
  inviterId: string;
  expiresAt: number;
  createdAt: number;
}

export interface TeamTable {
  id: string;
  name: string;
  organizationId: string;
  createdAt: number;
  updatedAt: number | null;
}

export interface TeamMemberTable {
  id: string;
  teamId: string;
  userId: string;
  createdAt: number;
}

export interface ApiKeyTable {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  key: string;
  userId: string;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: number | null;
  enabled: DbBoolean;
  rateLimitEnabled: DbBoolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: number | null;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  permissions: string | null;
  metadata: string | null;
  /** How far the usage counters have been written (see migrations/20261127070000_add_api_key_usage_version.ts). */
  usageVersion: Generated<number>;
}

export interface JwksTable {
  /** The key id (kid). */
  id: string;
  /** The public key as a JWK (JSON). */
  publicKey: string;
  /** The private key, encrypted under a key derived from the app secret (src/crypto/sealed.ts). */
  privateKey: string;
  alg: Generated<string>;
  createdAt: number;
  /** When a newer key took over, plus the longest token lifetime: unpublished after; null while current. */
  expiresAt: number | null;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface PasskeyTable {
  id: string;
  name: string | null;
  /** The COSE public key, standard base64 with padding (as Better Auth stores it). */
  publicKey: string;
  userId: string;
  /** base64url without padding; unique. */
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: DbBoolean;
  /** Comma-joined transports ("internal,hybrid"), or null when the browser reported none. */
  transports: string | null;
  createdAt: number | null;
  aaguid: string | null;
  /** When it last signed its owner in (epoch ms); null before its first sign-in. Not on the wire. */
  lastUsedAt: number | null;
}

export interface AuditEventTable {
  id: string;
  type: string;
  createdAt: number;
  actorType: string;
  actorId: string | null;
  /** The user the event is about. */
  subjectId: string | null;
  organizationId: string | null;
  ip: string | null;
  userAgent: string | null;
  outcome: string;
  /** JSON object of the event's details (never a secret). */
  data: string;
  /** Whether the delivery worker has made this event's webhook deliveries. */
  fannedOut: Generated<DbBoolean>;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  twoFactor: TwoFactorTable;
  rateLimit: RateLimitTable;
  organization: OrganizationTable;
  member: MemberTable;
  invitation: InvitationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
  apikey: ApiKeyTable;
  jwks: JwksTable;
  authdSetting: SettingTable;
  passkey: PasskeyTable;
  auditEvent: AuditEventTable;
  webhookEndpoint: WebhookEndpointTable;
  webhookDelivery: WebhookDeliveryTable;
  oauthClient: OAuth.OAuthClientTable;
  oauthGrant: OAuth.OAuthGrantTable;
  oauthCode: OAuth.OAuthCodeTable;
  oauthToken: OAuth.OAuthTokenTable;
  oauthConsent: OAuth.OAuthConsentTable;
  importedUser: ImportedUserTable;
  webhookAttempt: WebhookAttemptTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type NewSessionRow = Insertable<SessionTable>;
export type AccountRow = Selectable<AccountTable>;
export type NewAccountRow = Insertable<AccountTable>;
export type VerificationRow = Selectable<VerificationTable>;
export type TwoFactorRow = Selectable<TwoFactorTable>;
export type OrganizationRow = Selectable<OrganizationTable>;
export type MemberRow = Selectable<MemberTable>;
export type InvitationRow = Selectable<InvitationTable>;
export type TeamRow = Selectable<TeamTable>;
export type TeamMemberRow = Selectable<TeamMemberTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type PasskeyRow = Selectable<PasskeyTable>;
export type NewPasskeyRow = Insertable<PasskeyTable>;
export type JwkRow = Selectable<JwksTable>;
export type NewJwkRow = Insertable<JwksTable>;
export type AuditEventRow = Selectable<AuditEventTable>;
export type NewAuditEventRow = Insertable<AuditEventTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable };
export type NewWebhookEndpointRow = Insertable<WebhookEndpointTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;

/** The database or a transaction on it: what every repository function takes first. */
export type Db = Kysely<Database> | Transaction<Database>;

/** A transaction (locks are taken only inside one). */
export type Trx = Transaction<Database>;
