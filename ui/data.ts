import type { AuthContext } from "../src/context.ts";
import { AuthError } from "../src/errors.ts";
import { banUser, revokeSessionsOf, setUserRole, unbanUser } from "../src/services/admin.ts";
import type { CreatedApiKey } from "../src/services/api-keys/api-keys.ts";
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
  listUserPage,
  type Page,
  type PageRequest,
  type SearchPageRequest,
} from "../src/services/directory.ts";
import {
  addOAuthClient,
  type ClientChanges,
  findClient,
  listClients,
  type NewClientInput,
  removeOAuthClient,
  rotateClientSecret,
  toOAuthClientWire,
  updateClient,
} from "../src/services/oidc-provider/clients.ts";
import {
  deleteUserWithSessions,
  issueApiKeyAsOperator,
  type OperatorApiKeyOptions,
  revokeApiKeyById,
} from "../src/services/operator-actions.ts";
import {
  cancelInvitationAsOperator,
  changeMemberRoleAsOperator,
  organizationRoleNames,
  removeMemberAsOperator,
  resendInvitationAsOperator,
} from "../src/services/organizations/operator.ts";
import {
  type ActivityBucket,
  type OverviewStatistics,
  readOverviewStatistics,
} from "../src/services/overview-statistics.ts";
import { removeUserPasskey } from "../src/services/passkeys/operator.ts";
import { CLI_SOURCE, type EventSource } from "../src/services/security-events.ts";
import { resetTwoFactor } from "../src/services/two-factor/enrollment.ts";
import {
  describeOrganization,
  describeUser,
  type OrganizationOverview,
  type UserOverview,
} from "../src/services/user-overview.ts";
import type { UserWire } from "../src/services/users.ts";
import type { OAuthClientWire, OAuthClientWithSecretWire } from "../src/wire/oauth-client.ts";

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
  /** The organization role table's names: what a member's role may be set to. */
  organizationRoles(): string[];
  /** Give a member of the organization another role; the organization keeps at least one owner. */
  changeMemberRole(organizationId: string, memberId: string, role: string): Promise<void>;
  /** Remove a member of the organization (not its last owner). */
  removeMember(organizationId: string, memberId: string): Promise<void>;
  /** Mail a pending invitation again with a new expiry (a new invitation in its place). */
  resendInvitation(organizationId: string, invitationId: string): Promise<void>;
  cancelInvitation(organizationId: string, invitationId: string): Promise<void>;
  /** API keys of every user: the search text matches name, prefix, start or owner email. */
  listApiKeys(request: ApiKeyPageRequest): Promise<Page<ListedApiKey>>;
  listOAuthClients(): Promise<OAuthClientWire[]>;
  findOAuthClient(clientId: string): Promise<OAuthClientWire | null>;
  /** The secret (confidential clients) is answered here once; only its digest is kept. */
  createOAuthClient(input: NewClientInput): Promise<OAuthClientWithSecretWire>;
  updateOAuthClient(clientId: string, changes: ClientChanges): Promise<OAuthClientWire>;
  rotateOAuthClientSecret(clientId: string): Promise<OAuthClientWithSecretWire>;
  deleteOAuthClient(clientId: string): Promise<void>;
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
    ...organizationActions(ctx, source),
    listApiKeys: (request) => listApiKeyPage(ctx, request),
    ...oauthClientData(ctx, source),
  };
}

/** An operator's actions on an organization's members and invitations (the console's organization screen). */
function organizationActions(
  ctx: AuthContext,
  source: EventSource,
): Pick<
  AdminData,
  "organizationRoles" | "changeMemberRole" | "removeMember" | "resendInvitation" | "cancelInvitation"
> {
  return {
    organizationRoles: () => organizationRoleNames(ctx),
    async changeMemberRole(organizationId, memberId, role) {
      await changeMemberRoleAsOperator(ctx, organizationId, memberId, role, source);
    },
    async removeMember(organizationId, memberId) {
      await removeMemberAsOperator(ctx, organizationId, memberId, source);
    },
    async resendInvitation(organizationId, invitationId) {
      await resendInvitationAsOperator(ctx, organizationId, invitationId, source);
    },
    async cancelInvitation(organizationId, invitationId) {
      await cancelInvitationAsOperator(ctx, organizationId, invitationId, source);
    },
  };
}

/** The OpenID Provider's clients, as the console reads and changes them (the secret answered once). */
function oauthClientData(
  ctx: AuthContext,
  source: EventSource,
): Pick<
  AdminData,
  | "listOAuthClients"
  | "findOAuthClient"
  | "createOAuthClient"
  | "updateOAuthClient"
  | "rotateOAuthClientSecret"
  | "deleteOAuthClient"
> {
  return {
    listOAuthClients: async () => (await listClients(ctx)).map(toOAuthClientWire),
    findOAuthClient: async (clientId) => {
      const client = await findClient(ctx, clientId);
      return client ? toOAuthClientWire(client) : null;
    },
    async createOAuthClient(input) {
      const { client, secret } = await addOAuthClient(ctx, input, source);
      const wire = toOAuthClientWire(client);
      return secret === null ? wire : { ...wire, client_secret: secret };
    },
    updateOAuthClient: async (clientId, changes) =>
      toOAuthClientWire(await updateClient(ctx, clientId, changes, source)),
    async rotateOAuthClientSecret(clientId) {
      const { client, secret } = await rotateClientSecret(ctx, clientId, source);
      return { ...toOAuthClientWire(client), client_secret: secret };
    },
    async deleteOAuthClient(clientId) {
      await removeOAuthClient(ctx, clientId, source);
    },
  };
}

// All the terminal UI (and, server-side, the web console) takes from src/ besides src/wire and src/durations.ts:
// the shapes AdminData answers with, the context it is built from, and the operator formats the CLI shares (so an
// event and a banned owner's keys read the same in `authd audit`, `authd users show` and on the screens).
export { OWNER_BANNED_MARKER } from "../src/services/api-keys/api-keys.ts";
export { AUDIT_EXPORT_FORMATS, AUDIT_EXPORT_MEDIA_TYPES, auditExportFileName } from "../src/services/audit-export.ts";
export { describeEventData } from "../src/services/audit-log.ts";
export { AUDITED_EVENT_TYPES } from "../src/services/security-event-types.ts";
export type {
  ActivityBucket,
  ApiKeyPageRequest,
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
  OrganizationOverview,
  OverviewStatistics,
  Page,
  PageRequest,
  SearchPageRequest,
  UserOverview,
  UserWire,
};
