import { existsSync } from "node:fs";
import { fromBetterAuth } from "../../../crypto/imported-hash-forms.ts";
import { openBetterAuthSealed } from "../../../crypto/xchacha.ts";
import { openDatabase } from "../../../db/driver.ts";
import {
  CREDENTIAL_PROVIDER_ID,
  listAccountsOfUsers,
  listMembershipsOfUsers,
  listTwoFactorsOfUsers,
  listUsersAfter,
} from "../../../db/repositories/interchange.ts";
import type { AccountRow, TwoFactorRow, UserRow } from "../../../db/schema.ts";
import { userLine } from "../export.ts";
import type { V1User, V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { ImportSourceError } from "./json-lines.ts";

// A Better Auth database, SQLite file or Postgres URL: users with their password accounts (Better Auth's
// scrypt, verified as it is and upgraded at sign-in), linked providers, organizations and memberships, and
// (given the app's BETTER_AUTH_SECRET) TOTP secrets and backup codes. authd's tables are Better Auth's, so
// the same reads serve. Read a page of users at a time; nothing is written there.

/** Better Auth writes dates as ISO text on SQLite and timestamps on Postgres; authd as epoch milliseconds. */
function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === "string" ? value : Number(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

type TwoFactor = V1UserInput["twoFactor"] | string;

function twoFactorOf(row: UserRow, stored: TwoFactorRow | undefined, secret: string | null): TwoFactor {
  if (!row.twoFactorEnabled || !stored) return null;
  if (secret === null) return "two-factor is on: pass --better-auth-secret-file to carry its TOTP secret";
  const totpSecret = openBetterAuthSealed(secret, stored.secret);
  const codes = openBetterAuthSealed(secret, stored.backupCodes);
  if (totpSecret === null || codes === null) return "two-factor: the Better Auth secret given does not open it";
  return { enabled: true, totpSecret, backupCodes: JSON.parse(codes) as string[] };
}

function recordOf(
  row: UserRow,
  accounts: AccountRow[],
  twoFactor: V1UserInput["twoFactor"],
  organizations: V1User["organizations"],
): V1UserInput {
  const credential = accounts.find((account) => account.providerId === CREDENTIAL_PROVIDER_ID);
  const links = accounts
    .filter((account) => account.providerId !== CREDENTIAL_PROVIDER_ID)
    .map((account) => ({ provider: account.providerId, accountId: account.accountId }));
  const password = credential?.password ? fromBetterAuth(credential.password) : null;
  return userLine(row, { password, accounts: links, twoFactor: twoFactor ?? null, organizations }, isoOf);
}

export function openBetterAuth(target: string, secret: string | null): RecordStream {
  const url = /^postgres(ql)?:\/\//.test(target) ? target : `sqlite://${target}`;
  if (url.startsWith("sqlite://") && !existsSync(target))
    throw new ImportSourceError(`no Better Auth database at ${target} (a SQLite file or a postgres:// URL)`);
  return {
    header: { hashConfigs: {} },
    async *records(): AsyncGenerator<SourceRecord> {
      const handle = openDatabase(url, { create: false });
      try {
        let after = "";
        for (;;) {
          const page = await listUsersAfter(handle.db, after, 500);
          if (page.length === 0) return;
          after = page[page.length - 1].id;
          const ids = page.map((row) => row.id);
          const accounts = await listAccountsOfUsers(handle.db, ids);
          const twoFactors = await listTwoFactorsOfUsers(handle.db, ids);
          const memberships = await listMembershipsOfUsers(handle.db, ids);
          for (const row of page) {
            const twoFactor = twoFactorOf(
              row,
              twoFactors.find((entry) => entry.userId === row.id),
              secret,
            );
            const position = `user ${row.id}`;
            if (typeof twoFactor === "string") {
              yield { position, problem: twoFactor };
              continue;
            }
            const own = memberships
              .filter((m) => m.userId === row.id)
              .map(({ id, slug, name, role }) => ({ id, slug, name, role }));
            const record = recordOf(
              row,
              accounts.filter((a) => a.userId === row.id),
              twoFactor,
              own,
            );
            yield { position, record };
          }
        }
      } finally {
        await handle.close();
      }
    },
  };
}
