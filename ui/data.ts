import type { AuthContext } from "../src/context.ts";
import { banUser, revokeSessionsOf, setUserRole, unbanUser } from "../src/services/admin.ts";
import type { CreatedApiKey } from "../src/services/api-keys/api-keys.ts";
import { type AuditEventListing, listAuditLog, withSubjectEmails } from "../src/services/audit-log.ts";
import {
  BULK_USER_LIMIT,
  type BulkOutcome,
  banUsers,
  revokeSessionsOfUsers,
  unbanUsers,
} from "../src/services/bulk-user-actions.ts";
import {
  type ListedOrganization,
  type ListedSession,
  listOrganizationPage,
  listSessionPage,
  listUserPage,
  type Page,
  type SearchPageRequest,
} from "../src/services/directory.ts";
import {
  deleteUserWithSessions,
  issueApiKeyAsOperator,
  type OperatorApiKeyOptions,
  revokeApiKeyById,
} from "../src/services/operator-actions.ts";
import { removeUserPasskey } from "../src/services/passkeys/operator.ts";
import { CLI_SOURCE, type EventSource } from "../src/services/security-events.ts";
import { resetTwoFactor } from "../src/services/two-factor/enrollment.ts";
import {
  describeOrganization,
  describeUser,
  type OrganizationOverview,
  type UserOverview,
} from "../src/services/user-overview.ts";
import {
  listUsersByIds,
  searchUsers,
  type UserSearchPage,
  type UserSearchRequest,
  userFilterChoices,
} from "../src/services/user-search.ts";
import type { UserWire } from "../src/services/users.ts";

// What the terminal UI reads and does, over the same context and the same service functions as the
// server and the CLI. Screens only see this interface, so the UI tests drive a real database through it.

/** The issue dialog's choices, as `authd issue-api-key` takes them; unset: the configured default. */
export type IssueKeyOptions = Pick<
  OperatorApiKeyOptions,
  "name" | "rateLimit" | "remaining" | "refill" | "expiresInSeconds"
>;

export interface AdminData {
  now(): number;
  listUsers(request: SearchPageRequest): Promise<Page<UserWire>>;
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
  /** The users list with filters, sorts and cursors (the web console's; `authd users list` asks the same). */
  searchUsers(request: UserSearchRequest): Promise<UserSearchPage>;
  /** Ban the users chosen (at most BULK_USER_LIMIT), each with its own event; refused if it names the actor. */
  banUsers(userIds: readonly string[], reason: string, expiresInSeconds?: number): Promise<BulkOutcome>;
  unbanUsers(userIds: readonly string[]): Promise<BulkOutcome>;
  revokeSessionsOfUsers(userIds: readonly string[]): Promise<BulkOutcome & { sessions: number }>;
  /** The users with these ids that exist, in that order. */
  usersByIds(userIds: readonly string[]): Promise<UserWire[]>;
  /** The providers and roles the users list's filters offer (those stored, and the default role). */
  userFilterChoices(): Promise<{ providers: string[]; roles: string[] }>;
}

/**
 * The operator's view over `ctx`, acting as `source`: the terminal UI is the CLI (CLI_SOURCE); the web console
 * passes the signed-in admin (their id, address and browser), so every event names who did it from where.
 */
export function createAdminData(ctx: AuthContext, source: EventSource = CLI_SOURCE): AdminData {
  return {
    now: () => ctx.now(),
    listUsers: (request) => listUserPage(ctx, request),
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
    issueApiKey: (userId, options) => issueApiKeyAsOperator(ctx, userId, options),
    apiKeyDefaults: () => {
      const { enabled, maxRequests, timeWindow } = ctx.config.apiKey.rateLimit;
      return { rateLimit: enabled ? { max: maxRequests, windowMs: timeWindow } : false };
    },
    async revokeApiKey(keyId) {
      if (!(await revokeApiKeyById(ctx, keyId))) throw new Error("the API key no longer exists");
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
    searchUsers: (request) => searchUsers(ctx, request),
    banUsers: (userIds, reason, expiresInSeconds) =>
      banUsers(ctx, userIds, { reason, expiresIn: expiresInSeconds }, source),
    unbanUsers: (userIds) => unbanUsers(ctx, userIds, source),
    revokeSessionsOfUsers: (userIds) => revokeSessionsOfUsers(ctx, userIds, source),
    usersByIds: (userIds) => listUsersByIds(ctx, userIds),
    userFilterChoices: () => userFilterChoices(ctx),
  };
}

// All the terminal UI (and, server-side, the web console) takes from src/ besides src/wire and src/durations.ts:
// the shapes AdminData answers with, the context it is built from, and the operator formats the CLI shares (so an
// event and a banned owner's keys read the same in `authd audit`, `authd users show` and on the screens).
export { OWNER_BANNED_MARKER } from "../src/services/api-keys/api-keys.ts";
export { describeEventData } from "../src/services/audit-log.ts";
export { USER_COUNT_CAP, USER_SORT_KEYS } from "../src/services/user-search.ts";
export type {
  AuditEventListing,
  AuthContext,
  BulkOutcome,
  CreatedApiKey,
  EventSource,
  ListedOrganization,
  ListedSession,
  OrganizationOverview,
  Page,
  SearchPageRequest,
  UserOverview,
  UserSearchPage,
  UserSearchRequest,
  UserWire,
};
export { BULK_USER_LIMIT };
