import type { AuthContext } from "../src/context.ts";
import { countOrganizations, findApiKeyOwnerId, listOrganizations, type OrganizationListRow } from "../src/db/repositories/directory.ts";
import { countSessions, findSessionById, listSessions, type SessionWithEmailRow } from "../src/db/repositories/sessions.ts";
import { countUsers, listUsers } from "../src/db/repositories/users.ts";
import { banUser, removeUser, setUserRole, unbanUser } from "../src/services/admin.ts";
import { createApiKey, type CreatedApiKey, deleteApiKey } from "../src/services/api-keys.ts";
import { revokeSession, revokeUserSessions } from "../src/services/sessions.ts";
import { describeOrganization, describeUser, type OrganizationOverview, type UserOverview } from "../src/services/user-overview.ts";
import { toUserWire, type UserWire } from "../src/services/users.ts";

// What the terminal UI reads and does, over the same context as the server and the CLI. Screens
// only see this interface, so the UI tests drive a real database through it.

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageRequest {
  search?: string;
  limit: number;
  offset: number;
}

export type { OrganizationOverview };

export interface AdminData {
  now(): number;
  listUsers(request: PageRequest): Promise<Page<UserWire>>;
  describeUser(userId: string): Promise<UserOverview | null>;
  banUser(userId: string, reason: string): Promise<void>;
  unbanUser(userId: string): Promise<void>;
  setRole(userId: string, role: string): Promise<void>;
  revokeSession(sessionId: string): Promise<void>;
  revokeAllSessions(userId: string): Promise<number>;
  issueApiKey(userId: string, name: string | undefined): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<void>;
  deleteUser(userId: string): Promise<void>;
  listOrganizations(request: PageRequest): Promise<Page<OrganizationListRow>>;
  describeOrganization(organizationId: string): Promise<OrganizationOverview | null>;
  listSessions(request: PageRequest): Promise<Page<SessionWithEmailRow>>;
}

export function createAdminData(ctx: AuthContext): AdminData {
  return {
    now: () => ctx.now(),
    async listUsers(request) {
      const [rows, total] = await Promise.all([listUsers(ctx.db, request), countUsers(ctx.db, request)]);
      return { items: rows.map((row) => toUserWire(ctx, row)), total };
    },
    async describeUser(userId) {
      return describeUser(ctx, userId);
    },
    async banUser(userId, reason) {
      await banUser(ctx, userId, { reason });
    },
    async unbanUser(userId) {
      await unbanUser(ctx, userId);
    },
    async setRole(userId, role) {
      await setUserRole(ctx, userId, role.split(",").map((r) => r.trim()).filter(Boolean));
    },
    async revokeSession(sessionId) {
      const session = await findSessionById(ctx.db, sessionId);
      if (session) await revokeSession(ctx, session.token);
    },
    revokeAllSessions: (userId) => revokeUserSessions(ctx, userId),
    async issueApiKey(userId, name) {
      return createApiKey(ctx, { userId, name }, { isServer: true });
    },
    async revokeApiKey(keyId) {
      const ownerId = await findApiKeyOwnerId(ctx.db, keyId);
      if (!ownerId) throw new Error("the API key no longer exists");
      await deleteApiKey(ctx, ownerId, keyId);
    },
    async deleteUser(userId) {
      // Sessions first, through the service, so cached copies (Redis) are revoked too; then the row
      // (accounts, keys and memberships go with it).
      await revokeUserSessions(ctx, userId);
      await removeUser(ctx, userId);
    },
    async listOrganizations(request) {
      const [items, total] = await Promise.all([listOrganizations(ctx.db, request), countOrganizations(ctx.db, request)]);
      return { items, total };
    },
    describeOrganization: (organizationId) => describeOrganization(ctx, organizationId),
    async listSessions(request) {
      const activeAt = ctx.now();
      const [items, total] = await Promise.all([listSessions(ctx.db, { activeAt, limit: request.limit, offset: request.offset }), countSessions(ctx.db, { activeAt })]);
      return { items, total };
    },
  };
}
