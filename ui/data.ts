import type { AuthContext } from "../src/context.ts";
import { AuthError } from "../src/errors.ts";
import { banUser, revokeSessionsOf, setUserPassword, setUserRole, unbanUser } from "../src/services/admin.ts";
import { mailPasswordResetAsAdmin, verifyEmailAsAdmin } from "../src/services/admin-mailbox.ts";
import { type ApiKeyWire, type CreatedApiKey, deleteApiKey } from "../src/services/api-keys/api-keys.ts";
import { type AuditExportFormat, exportAuditLog } from "../src/services/audit-export.ts";
import {
  type AuditEventListing,
  type AuditLogQuery,
  auditFilterOf,
  findAuditEventListing,
  listAuditLog,
  withSubjectEmails,
} from "../src/services/audit-log.ts";
import {
  type ApiKeyPageRequest,
  type ListedApiKey,
  type ListedOrganization,
  type ListedSession,
  listApiKeyPage,
  listOrganizationPage,
  listSessionPage,
  type Page,
  type PageRequest,
  type SearchPageRequest,
} from "../src/services/directory.ts";
import { impersonationLimit, startImpersonation } from "../src/services/impersonation.ts";
import type { ClientChanges, NewClientInput } from "../src/services/oidc-provider/clients.ts";
import {
  deleteUserWithSessions,
  issueApiKeyAsOperator,
  type OperatorApiKeyChanges,
  type OperatorApiKeyOptions,
  revokeApiKeyById,
  updateApiKeyAsOperator,
} from "../src/services/operator-actions.ts";
import {
  type ActivityBucket,
  type OverviewStatistics,
  readOverviewStatistics,
} from "../src/services/overview-statistics.ts";
import { removeUserPasskey } from "../src/services/passkeys/operator.ts";
import { CLI_SOURCE, type EventSource } from "../src/services/security-events.ts";
import type { SessionWithUser } from "../src/services/sessions/sessions.ts";
import { resetTwoFactor } from "../src/services/two-factor/enrollment.ts";
import {
  describeOrganization,
  describeUser,
  type OrganizationOverview,
  type UserOverview,
} from "../src/services/user-overview.ts";
import { assertPasswordLength, type UserWire } from "../src/services/users.ts";
import type { OAuthClientWire, OAuthClientWithSecretWire } from "../src/wire/oauth-client.ts";
import {
  type OAuthClientAdminData,
  type OrganizationAdminData,
  oauthClientData,
  organizationActions,
} from "./data-console.ts";
import type { MailAdminData } from "./data-mail.ts";
import { type UsersAdminData, userDirectory } from "./data-users.ts";
import { type SettingsAdminData, type WebhookAdminData, webhooksAndSettings } from "./data-webhooks.ts";

// What the terminal UI reads and does, over the same context and the same service functions as the
// server and the CLI. Screens only see this interface, so the UI tests drive a real database through it.

/** The issue dialog's choices, as `authd issue-api-key` takes them; unset: the configured default. */
export type IssueKeyOptions = Pick<
  OperatorApiKeyOptions,
  "name" | "rateLimit" | "remaining" | "refill" | "expiresInSeconds" | "permissions"
>;

export interface AdminData
  extends OrganizationAdminData,
    OAuthClientAdminData,
    WebhookAdminData,
    SettingsAdminData,
    UsersAdminData,
    MailAdminData {
  now(): number;
  describeUser(userId: string): Promise<UserOverview | null>;
  /** expiresInSeconds: the ban ends by itself then; unset, it lasts until unbanned. */
  banUser(userId: string, reason: string, expiresInSeconds?: number): Promise<void>;
  unbanUser(userId: string): Promise<void>;
  setRole(userId: string, role: string): Promise<void>;
  /** Remove the user's second factor (secret, backup codes, trusted browsers). */
  resetTwoFactor(userId: string): Promise<void>;
  revokeSession(sessionId: string): Promise<void>;
  revokeAllSessions(userId: string): Promise<number>;
  issueApiKey(userId: string, options: IssueKeyOptions): Promise<CreatedApiKey>;
  /** The limits a new key gets unless told otherwise (the issue dialog shows them). */
  apiKeyDefaults(): { rateLimit: { max: number; windowMs: number } | false };
  revokeApiKey(keyId: string): Promise<void>;
  removePasskey(userId: string, passkeyId: string): Promise<void>;
  deleteUser(userId: string): Promise<void>;
  listOrganizations(request: SearchPageRequest): Promise<Page<ListedOrganization>>;
  describeOrganization(organizationId: string): Promise<OrganizationOverview | null>;
  /** Active sessions only; the search text is ignored (the sessions screen has none). */
  listSessions(request: SearchPageRequest): Promise<Page<ListedSession>>;
  /**
   * The audit log, newest first, with each subject's email; the search text matches the type, the subject's
   * id or email, the actor's id, or the ip.
   */
  listAuditEvents(request: SearchPageRequest): Promise<Page<AuditEventListing>>;
  /**
   * The audit log as an operator's filters say (the web console's form), newest first, with each subject's
   * email; `unknownUser`: the user filter is an address no user has now, so nothing is listed.
   */
  filterAuditLog(query: AuditLogQuery, page: PageRequest): Promise<AuditLogPage>;
  /** One event with all its data and its subject's email, or null when there is none by that id. */
  describeAuditEvent(eventId: string): Promise<AuditEventListing | null>;
  /** The filtered log as CSV or JSON Lines, newest first, in chunks read a batch at a time (a download streams them). */
  exportAuditLog(query: AuditLogQuery, format: AuditExportFormat): AsyncGenerator<string>;
  /** The console's overview: users, active sessions, sign-up and sign-in activity, failing webhook deliveries. */
  readOverview(): Promise<OverviewStatistics>;
  /** The events about one user (their timeline), newest first. */
  listUserAuditEvents(userId: string, page: PageRequest): Promise<Page<AuditEventListing>>;
  /** Mark the user's address verified (no mailbox proof: nothing is claimed); false when it already was. */
  verifyEmail(userId: string): Promise<boolean>;
  /** Mail the user a password reset link, as /request-password-reset does for their address. */
  sendPasswordReset(userId: string): Promise<void>;
  /** Set the user's password (the length rules apply: PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG). */
  setPassword(userId: string, password: string): Promise<void>;
  /** End one of the user's sessions; 0 when the user has no such session (another user's is left alone). */
  revokeUserSession(userId: string, sessionId: string): Promise<number>;
  /** Change one of the user's keys (limits, refill, expiry, permissions, enabled); KEY_NOT_FOUND for a key not theirs. */
  updateApiKey(userId: string, keyId: string, changes: OperatorApiKeyChanges): Promise<ApiKeyWire>;
  /** Revoke one of the user's keys; KEY_NOT_FOUND for a key not theirs. */
  revokeUserApiKey(userId: string, keyId: string): Promise<void>;
  /** The longest an impersonation may last, in seconds (admin.impersonationSessionDuration). */
  impersonationLimit(): number;
  /**
   * Start a session of the user marked as impersonated by the acting administrator (the source's actor), for
   * `expiresInSeconds` (at most impersonationLimit()); the reason is recorded on impersonation_started. The
   * caller hands the browser the session (src/http/impersonation.ts).
   */
  impersonate(userId: string, options: { reason: string; expiresInSeconds: number }): Promise<SessionWithUser>;
  /** API keys of every user: the search text matches name, prefix, start or owner email. */
  listApiKeys(request: ApiKeyPageRequest): Promise<Page<ListedApiKey>>;
}

/** A page of the filtered audit log (AdminData.filterAuditLog). */
export type AuditLogPage = Page<AuditEventListing> & { unknownUser: boolean };

/**
 * The operator's view over `ctx`, acting as `source`: the terminal UI is the CLI (CLI_SOURCE); the web console
 * passes the signed-in admin (their id, address and browser), so every event names who did it from where.
 */
export function createAdminData(ctx: AuthContext, source: EventSource = CLI_SOURCE): AdminData {
  return {
    now: () => ctx.now(),
    describeUser: (userId) => describeUser(ctx, userId),
    async banUser(userId, reason, expiresInSeconds) {
      await banUser(ctx, userId, { reason, expiresIn: expiresInSeconds }, source);
    },
    async unbanUser(userId) {
      await unbanUser(ctx, userId, source);
    },
    async setRole(userId, role) {
      await setUserRole(ctx, userId, role, source);
    },
    async resetTwoFactor(userId) {
      await resetTwoFactor(ctx, userId, source);
    },
    async revokeSession(sessionId) {
      await revokeSessionsOf(ctx, { sessionId }, source);
    },
    revokeAllSessions: (userId) => revokeSessionsOf(ctx, { userId }, source),
    issueApiKey: (userId, options) => issueApiKeyAsOperator(ctx, userId, options, source),
    apiKeyDefaults: () => {
      const { enabled, maxRequests, timeWindow } = ctx.config.apiKey.rateLimit;
      return { rateLimit: enabled ? { max: maxRequests, windowMs: timeWindow } : false };
    },
    async revokeApiKey(keyId) {
      if (!(await revokeApiKeyById(ctx, keyId, source))) throw new AuthError("KEY_NOT_FOUND");
    },
    async removePasskey(userId, passkeyId) {
      await removeUserPasskey(ctx, userId, passkeyId, source);
    },
    deleteUser: (userId) => deleteUserWithSessions(ctx, userId, source),
    listOrganizations: (request) => listOrganizationPage(ctx, request),
    describeOrganization: (organizationId) => describeOrganization(ctx, organizationId),
    listSessions: ({ limit, offset }) => listSessionPage(ctx, { limit, offset }),
    listAuditEvents: async ({ search, limit, offset }) => {
      const page = await listAuditLog(ctx, { search }, { limit, offset });
      return { items: await withSubjectEmails(ctx, page.items), total: page.total };
    },
    async filterAuditLog(query, request) {
      const filter = await auditFilterOf(ctx, query);
      if (filter === null) return { items: [], total: 0, unknownUser: true };
      const page = await listAuditLog(ctx, filter, request);
      return { items: await withSubjectEmails(ctx, page.items), total: page.total, unknownUser: false };
    },
    describeAuditEvent: (eventId) => findAuditEventListing(ctx, eventId),
    async *exportAuditLog(query, format) {
      yield* exportAuditLog(ctx, await auditFilterOf(ctx, query), format);
    },
    readOverview: () => readOverviewStatistics(ctx),
    listUserAuditEvents: async (userId, { limit, offset }) => {
      const page = await listAuditLog(ctx, { subjectId: userId }, { limit, offset });
      return { items: await withSubjectEmails(ctx, page.items), total: page.total };
    },
    verifyEmail: (userId) => verifyEmailAsAdmin(ctx, userId, source),
    sendPasswordReset: (userId) => mailPasswordResetAsAdmin(ctx, userId, source),
    async setPassword(userId, password) {
      assertPasswordLength(ctx, password);
      await setUserPassword(ctx, userId, password, source);
    },
    revokeUserSession: (userId, sessionId) => revokeSessionsOf(ctx, { sessionId, ownerId: userId }, source),
    updateApiKey: (userId, keyId, changes) => updateApiKeyAsOperator(ctx, userId, keyId, changes, source),
    revokeUserApiKey: (userId, keyId) => deleteApiKey(ctx, userId, keyId, source),
    impersonationLimit: () => impersonationLimit(ctx),
    async impersonate(userId, { reason, expiresInSeconds }) {
      if (source.actorType !== "admin" || !source.actorId)
        throw new Error("only a signed-in administrator impersonates");
      const request = { reason, expiresIn: expiresInSeconds, ipAddress: source.ip, userAgent: source.userAgent };
      return startImpersonation(ctx, source.actorId, userId, request, source);
    },
    ...organizationActions(ctx, source),
    listApiKeys: (request) => listApiKeyPage(ctx, request),
    ...oauthClientData(ctx, source),
    ...webhooksAndSettings(ctx, source),
    ...userDirectory(ctx, source),
  };
}

// All the terminal UI (and, server-side, the web console) takes from src/ besides src/wire and src/durations.ts:
// the shapes AdminData answers with, the context it is built from, and the operator formats the CLI shares (so an
// event and a banned owner's keys read the same in `authd audit`, `authd users show` and on the screens).
export { OWNER_BANNED_MARKER } from "../src/services/api-keys/api-keys.ts";
export { AUDIT_EXPORT_FORMATS, AUDIT_EXPORT_MEDIA_TYPES, auditExportFileName } from "../src/services/audit-export.ts";
export { describeEventData } from "../src/services/audit-log.ts";
export { AUDITED_EVENT_TYPES } from "../src/services/security-event-types.ts";
export type { DependencyHealth, SettingEntry } from "../src/wire/settings.ts";
export type { WebhookAttemptWire, WebhookEndpointWire, WebhookEndpointWithSecretWire } from "../src/wire/webhook.ts";
export {
  BULK_USER_LIMIT,
  type BulkOutcome,
  USER_COUNT_CAP,
  USER_SORT_KEYS,
  type UserSearchPage,
  type UserSearchRequest,
} from "./data-users.ts";
export type {
  ActivityBucket,
  ApiKeyPageRequest,
  ApiKeyWire,
  AuditEventListing,
  AuditExportFormat,
  AuditLogQuery,
  AuthContext,
  ClientChanges,
  CreatedApiKey,
  EventSource,
  ListedApiKey,
  ListedOrganization,
  ListedSession,
  NewClientInput,
  OAuthClientWire,
  OAuthClientWithSecretWire,
  OperatorApiKeyChanges,
  OrganizationOverview,
  OverviewStatistics,
  Page,
  PageRequest,
  SearchPageRequest,
  SessionWithUser,
  UserOverview,
  UserWire,
};
