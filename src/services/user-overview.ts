import type { AuthContext } from "../context.ts";
import { listAccountsByUserId } from "../db/repositories/accounts.ts";
import { listUserMemberships, type MembershipRow } from "../db/repositories/directory.ts";
import { type ApiKeyWire, listApiKeys } from "./api-keys.ts";
import { listSessions } from "../db/repositories/sessions.ts";
import { findUserByIdOrEmail } from "../db/repositories/users.ts";
import { toSessionWire, type SessionWire } from "./sessions.ts";
import { iso, toUserWire, type UserWire } from "./users.ts";

// Everything an operator sees about one user (CLI `users show`, the terminal UI's user detail).
// Secrets never leave here: no password hashes, provider tokens or hashed API keys.

export interface LinkedAccountSummary {
  id: string;
  providerId: string;
  accountId: string;
  createdAt: string;
}

export type SessionSummary = Pick<SessionWire, "id" | "userId" | "expiresAt" | "ipAddress" | "userAgent" | "createdAt" | "updatedAt"> & Record<string, unknown>;

export interface UserOverview {
  user: UserWire;
  /** Active sessions, without their tokens (a token is a bearer credential). */
  sessions: SessionSummary[];
  accounts: LinkedAccountSummary[];
  organizations: MembershipRow[];
  apiKeys: ApiKeyWire[];
}

export async function describeUser(ctx: AuthContext, idOrEmail: string): Promise<UserOverview | null> {
  const row = await findUserByIdOrEmail(ctx.db, idOrEmail);
  if (!row) return null;
  const [sessions, accounts, organizations, apiKeys] = await Promise.all([
    listSessions(ctx.db, { userId: row.id, activeAt: ctx.now(), limit: 1000 }),
    listAccountsByUserId(ctx.db, row.id),
    listUserMemberships(ctx.db, row.id),
    listApiKeys(ctx, row.id),
  ]);
  return {
    user: toUserWire(ctx, row),
    sessions: sessions.map((s) => {
      const { token: _token, ...wire } = toSessionWire(ctx, s);
      return wire;
    }),
    accounts: accounts.map((a) => ({ id: a.id, providerId: a.providerId, accountId: a.accountId, createdAt: iso(a.createdAt) as string })),
    organizations,
    apiKeys,
  };
}
