import type { HashKind } from "../crypto/imported-hash.ts";
import type { LogSlot } from "../platform/log-slots.ts";

// The catalogue of security events (issue 21): every type, with the details it carries. docs/events.md
// lists the same types with their fields. The types leave no field for a password, token, key, code or
// cookie: a detail is an id, a method, a count or a reason code.

/** How a sign-in proved who the caller is. */
export type SignInMethod =
  | "email"
  | "username"
  | "social"
  | "api-key"
  | "email-verification"
  | "magic-link"
  | "email-otp"
  | "passkey"
  | "two-factor";

/** The second factor a verification used. */
export type TwoFactorMethod = "totp" | "otp" | "backup-code";

/** Why a sign-in failed (a code, never what the caller sent). */
export type SignInFailureReason =
  | "invalid_credentials"
  | "email_not_verified"
  | "banned"
  | "throttled"
  | "invalid_token"
  | "account_not_linked"
  | "signup_disabled"
  | "unable_to_create_user"
  | "unable_to_link_account"
  | "unable_to_create_session"
  | "state_mismatch"
  | "provider_error"
  | "invalid_code"
  | "unable_to_get_user_info"
  | "email_not_found"
  | "key_not_found"
  | "key_disabled"
  | "key_expired"
  | "usage_exceeded"
  | "rate_limited"
  | "invalid_api_key"
  | "passkey_not_found"
  | "assertion_refused"
  | "failed";

type Done<T extends string, D = unknown> = { type: T; outcome: "success" } & D;

/** Two-factor and passkey events. */
export type FactorDetail =
  | Done<"two_factor_enabled">
  | Done<"two_factor_disabled", { method: "user" | "admin" }>
  | Done<"two_factor_challenged", { method: SignInMethod; provider?: string }>
  | {
      type: "two_factor_verification";
      outcome: "failure";
      factor: TwoFactorMethod;
      reason: "invalid_code" | "replayed" | "expired" | "too_many_attempts";
    }
  | {
      /** Failed second-factor attempts in a row locked the account's second factor for `lockedFor` seconds. */
      type: "two_factor_locked";
      outcome: "failure";
      failures: number;
      lockedFor: number;
    }
  | Done<"backup_codes_generated">
  | Done<"passkey_added", { passkeyId: string }>
  | Done<"passkey_removed", { passkeyId: string }>
  | { type: "passkey_counter_rollback"; outcome: "failure"; passkeyId: string };

/** Organization events (the organization's id is the event's organizationId). */
export type OrganizationDetail =
  | Done<"organization_created">
  | Done<"organization_deleted">
  | Done<"member_added", { memberId: string; role: string }>
  | Done<"member_removed", { memberId: string }>
  | Done<"member_role_changed", { memberId: string; role: string }>
  | Done<"invitation_sent", { invitationId: string; role: string }>
  | Done<"invitation_accepted", { invitationId: string }>
  | Done<"invitation_rejected", { invitationId: string }>
  | Done<"invitation_canceled", { invitationId: string }>;

/** How the first proof of a never-verified mailbox came (account-claim.ts). */
export type MailboxProofMethod = "magic-link" | "email-otp" | "provider" | "reset-link" | "reset-code";

export type AccountDetail =
  | Done<"sign_out">
  /** Everything made on the account before its address was first proven, removed: a count per credential kind. */
  | Done<"account_claimed", { method: MailboxProofMethod; provider?: string; removed: Record<string, number> }>
  | Done<"user_created">
  | Done<"user_updated", { fields: string[] }>
  | Done<"user_deleted">
  | Done<"api_key_updated", { keyId: string; fields: string[] }>;

/** The OpenID Provider's events (issue 30): the client's id, the token family's id, never a token. */
export type OidcDetail =
  | Done<"oidc_consent_granted", { clientId: string; scope: string }>
  | Done<"oidc_tokens_issued", { clientId: string; grantId: string; scope: string }>
  | Done<"oidc_tokens_refreshed", { clientId: string; grantId: string }>
  | Done<"oidc_tokens_revoked", { clientId: string; grantId: string; reason: "client" | "replay" | "session_ended" }>
  | {
      /** A spent code or refresh token presented again: its family is revoked (oidc_tokens_revoked follows). */
      type: "oidc_token_replayed";
      outcome: "failure";
      clientId: string;
      grantId: string;
      token: "code" | "refresh_token";
    }
  | Done<"oidc_logout", { clientId: string | null; families: number }>
  | OidcClientDetail;

/** An operator's changes to the OpenID Provider's clients (authd clients, the admin routes, the web console). */
export type OidcClientDetail =
  | Done<"oidc_client_created", { clientId: string }>
  | Done<"oidc_client_updated", { clientId: string; fields: string[] }>
  | Done<"oidc_client_secret_rotated", { clientId: string }>
  | Done<"oidc_client_deleted", { clientId: string }>;

/** What an administrator does from the web console that no other event says (issue 32). */
export type ConsoleUserDetail = Done<"password_reset_requested">;

/** How a webhook endpoint changed (the console, the admin API, `authd webhooks`). */
export type WebhookEndpointChange = "created" | "updated" | "disabled" | "enabled" | "secret_rotated" | "removed";

/** Webhook endpoints: the endpoint's id, what changed; never its URL's secrets or its signing secret. */
export type WebhookDetail = Done<
  "webhook_endpoint_changed",
  { endpointId: string; change: WebhookEndpointChange; fields?: string[] }
>;

export type Detail =
  | ConsoleUserDetail
  | FactorDetail
  | OidcDetail
  | OrganizationDetail
  | AccountDetail
  | WebhookDetail
  | {
      type: "sign_in";
      outcome: "success";
      method: SignInMethod;
      provider?: string;
      keyId?: string;
      strongFactor?: boolean;
    }
  | {
      type: "sign_in";
      outcome: "failure";
      method: SignInMethod;
      reason: SignInFailureReason;
      provider?: string;
      strongFactor?: boolean;
    }
  | { type: "sign_up"; outcome: "success"; method: "email" | "social" | "magic-link" | "email-otp"; provider?: string }
  | {
      type: "password_changed";
      outcome: "success";
      method: "change-password" | "set-password" | "admin";
      revokedOtherSessions?: boolean;
    }
  | { type: "password_reset"; outcome: "success"; revokedSessions: boolean; method?: "email-otp" }
  /** An imported hash (issue 33) matched and was replaced by authd's own; `from` is its kind. */
  | { type: "password_upgraded"; outcome: "success"; from: HashKind }
  | { type: "email_change_requested"; outcome: "success" }
  | { type: "email_changed"; outcome: "success"; method: "unverified-address" | "confirmed" }
  | {
      type: "email_verified";
      outcome: "success";
      method: "link" | "provider" | "magic-link" | "email-otp" | "admin";
      provider?: string;
    }
  | { type: "user_banned"; outcome: "success"; banExpires: string | null }
  | { type: "user_unbanned"; outcome: "success" }
  | { type: "role_changed"; outcome: "success"; role: string }
  | {
      type: "impersonation_started";
      outcome: "success";
      sessionId: string;
      /** When the impersonation session ends by itself. */
      expiresAt: string;
      /** Why, as the administrator gave it (the console requires one). */
      reason?: string;
    }
  | { type: "impersonation_stopped"; outcome: "success"; sessionId: string }
  | { type: "api_key_created"; outcome: "success"; keyId: string }
  | { type: "api_key_deleted"; outcome: "success"; keyId: string }
  | {
      type: "session_revoked";
      outcome: "success";
      scope: "session" | "user" | "all";
      count: number;
      sessionId?: string;
    }
  | ({
      type: "account_throttled";
      outcome: "failure";
      identifier: "email" | "username" | "email-code";
      retryAfter: number;
    } & LogSlot)
  | ({
      type: "origin_refused";
      outcome: "failure";
      origin: string;
      path: string;
      /** The setting that would let the origin in. */
      setting: "AUTH_TRUSTED_ORIGINS";
    } & LogSlot);

/** The name of a security event type. */
export type SecurityEventType = Detail["type"];

/** The types that are log lines only: any web page can cause them and they change nothing. */
export type LogOnlyType = "origin_refused";

/** A type the audit log stores and webhooks deliver. */
export type AuditedType = Exclude<SecurityEventType, LogOnlyType>;

// Every type once, at run time (tests go through each), in the order docs/events.md lists them. A record,
// not a list: the compiler refuses it while a type above is missing here or one here is unknown.
const EVENT_TYPES: Record<SecurityEventType, true> = {
  sign_up: true,
  sign_in: true,
  sign_out: true,
  account_throttled: true,
  session_revoked: true,
  password_changed: true,
  password_reset: true,
  password_upgraded: true,
  email_change_requested: true,
  email_changed: true,
  account_claimed: true,
  email_verified: true,
  two_factor_enabled: true,
  two_factor_disabled: true,
  two_factor_challenged: true,
  two_factor_verification: true,
  two_factor_locked: true,
  backup_codes_generated: true,
  passkey_added: true,
  passkey_removed: true,
  passkey_counter_rollback: true,
  user_created: true,
  user_updated: true,
  user_deleted: true,
  user_banned: true,
  user_unbanned: true,
  role_changed: true,
  impersonation_started: true,
  impersonation_stopped: true,
  api_key_created: true,
  api_key_deleted: true,
  api_key_updated: true,
  organization_created: true,
  organization_deleted: true,
  member_added: true,
  member_removed: true,
  member_role_changed: true,
  invitation_sent: true,
  invitation_accepted: true,
  invitation_rejected: true,
  invitation_canceled: true,
  oidc_consent_granted: true,
  oidc_tokens_issued: true,
  oidc_tokens_refreshed: true,
  oidc_tokens_revoked: true,
  oidc_token_replayed: true,
  oidc_logout: true,
  password_reset_requested: true,
  oidc_client_created: true,
  oidc_client_updated: true,
  oidc_client_secret_rotated: true,
  oidc_client_deleted: true,
  webhook_endpoint_changed: true,
  origin_refused: true,
};

export const SECURITY_EVENT_TYPES = Object.keys(EVENT_TYPES) as SecurityEventType[];

const LOG_ONLY_TYPES: ReadonlySet<SecurityEventType> = new Set<LogOnlyType>(["origin_refused"]);

/** Every type the audit log can hold, in the order docs/events.md lists them. */
export const AUDITED_EVENT_TYPES = SECURITY_EVENT_TYPES.filter((type) => !LOG_ONLY_TYPES.has(type)) as AuditedType[];
