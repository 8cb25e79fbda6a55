import type { AuthContext } from "../context.ts";
import { listAccountsByUserId } from "../db/repositories/accounts.ts";
import { listUserApiKeys, listUserMemberships, type MembershipRow } from "../db/repositories/directory.ts";
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

export interface ApiKeySummary {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  enabled: boolean;
  remaining: number | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface UserOverview {
  user: UserWire;
  sessions: SessionWire[];
  accounts: LinkedAccountSummary[];
  organizations: MembershipRow[];
  apiKeys: ApiKeySummary[];
}

export async function describeUser(ctx: AuthContext, idOrEmail: string): Promise<UserOverview | null> {
  const row = await findUserByIdOrEmail(ctx.db, idOrEmail);
  if (!row) return null;
  const [sessions, accounts, organizations, apiKeys] = await Promise.all([
    listSessions(ctx.db, { userId: row.id, activeAt: ctx.now(), limit: 1000 }),
    listAccountsByUserId(ctx.db, row.id),
    listUserMemberships(ctx.db, row.id),
    listUserApiKeys(ctx.db, row.id),
  ]);
  return {
    user: toUserWire(ctx, row),
    sessions: sessions.map((s) => toSessionWire(ctx, s)),
    accounts: accounts.map((a) => ({ id: a.id, providerId: a.providerId, accountId: a.accountId, createdAt: iso(a.createdAt) as string })),
    organizations,
    apiKeys: apiKeys.map((k) => ({
      id: k.id,
      name: k.name,
      start: k.start,
      prefix: k.prefix,
      enabled: Boolean(k.enabled),
      remaining: k.remaining === null ? null : Number(k.remaining),
      expiresAt: iso(k.expiresAt),
      createdAt: iso(k.createdAt) as string,
    })),
  };
}
