import type { AuthContext } from "../../context.ts";
import {
  CREDENTIAL_PROVIDER_ID,
  listAccountsOfUsers,
  listMembershipsOfUsers,
  listTwoFactorsOfUsers,
  listUsersAfter,
} from "../../db/repositories/interchange.ts";
import { countUsers } from "../../db/repositories/users.ts";
import type { UserRow } from "../../db/schema.ts";
import { openTwoFactor } from "../two-factor/store.ts";
import { parseAdditional } from "../user-fields.ts";
import { isUserLanguage } from "../user-language.ts";
import { FORMAT, type V1Header, type V1User } from "./format.ts";

// `authd export` (issue 33): every user in authd.v1, a page of users at a time (memory stays flat). Without
// secrets no password hash, TOTP secret or backup code is written; the same database exported twice gives
// the same lines (but the header's time), and so does an export of what an export imported.

export interface ExportOptions {
  includeSecrets: boolean;
  pageSize?: number;
}

const iso = (ms: unknown): string | null =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();

export interface UserLineExtras {
  password?: string | null;
  accounts: V1User["accounts"];
  twoFactor: V1User["twoFactor"];
  organizations: V1User["organizations"];
}

/** A user row as an authd.v1 line; `dateOf` reads the row's dates (authd's are epoch milliseconds). */
export function userLine(
  row: UserRow,
  extras: UserLineExtras,
  dateOf: (value: unknown) => string | null = iso,
): V1User {
  const metadata = parseAdditional(row);
  return {
    id: row.id,
    email: row.email,
    emailVerified: Boolean(row.emailVerified),
    name: row.name,
    image: row.image,
    username: row.username,
    displayUsername: row.displayUsername,
    role: row.role,
    language: isUserLanguage(row.language) ? row.language : null,
    banned: Boolean(row.banned),
    banReason: row.banReason,
    banExpires: dateOf(row.banExpires),
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    createdAt: dateOf(row.createdAt) ?? new Date(0).toISOString(),
    updatedAt: dateOf(row.updatedAt) ?? new Date(0).toISOString(),
    ...(extras.password !== undefined ? { password: extras.password } : {}),
    accounts: extras.accounts,
    twoFactor: extras.twoFactor,
    organizations: extras.organizations,
  };
}

function byUser<T extends { userId: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.userId);
    if (group) group.push(row);
    else groups.set(row.userId, [row]);
  }
  return groups;
}

/** The header and the user lines, as text lines without their newline. */
export async function* exportLines(ctx: AuthContext, options: ExportOptions): AsyncGenerator<string> {
  const header: V1Header = {
    format: FORMAT,
    exportedAt: new Date(ctx.now()).toISOString(),
    source: "authd",
    users: await countUsers(ctx.db),
    secrets: options.includeSecrets,
    hashConfigs: {},
  };
  yield JSON.stringify(header);
  let after = "";
  for (;;) {
    const page = await listUsersAfter(ctx.db, after, options.pageSize ?? 1000);
    if (page.length === 0) return;
    after = page[page.length - 1].id;
    const ids = page.map((row) => row.id);
    const accounts = byUser(await listAccountsOfUsers(ctx.db, ids));
    const twoFactors = byUser(await listTwoFactorsOfUsers(ctx.db, ids));
    const memberships = byUser(await listMembershipsOfUsers(ctx.db, ids));
    for (const row of page) {
      const own = accounts.get(row.id) ?? [];
      const credential = own.find((account) => account.providerId === CREDENTIAL_PROVIDER_ID);
      const stored = twoFactors.get(row.id)?.[0];
      const opened = row.twoFactorEnabled && stored && options.includeSecrets ? openTwoFactor(ctx, stored) : null;
      yield JSON.stringify(
        userLine(row, {
          password: options.includeSecrets ? (credential?.password ?? null) : undefined,
          accounts: own
            .filter((account) => account.providerId !== CREDENTIAL_PROVIDER_ID)
            .map((account) => ({ provider: account.providerId, accountId: account.accountId })),
          twoFactor: row.twoFactorEnabled
            ? { enabled: true, ...(opened ? { totpSecret: opened.secret, backupCodes: opened.backupCodes } : {}) }
            : null,
          organizations: (memberships.get(row.id) ?? []).map(({ id, slug, name, role }) => ({ id, slug, name, role })),
        }),
      );
    }
  }
}
