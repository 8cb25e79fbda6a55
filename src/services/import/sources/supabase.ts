import { existsSync } from "node:fs";
import { openDatabase } from "../../../db/driver.ts";
import {
  listSupabaseIdentities,
  listSupabaseUsersAfter,
  type SupabaseIdentityRow,
  type SupabaseUserRow,
} from "../../../db/repositories/supabase-source.ts";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { csvRows } from "./csv.ts";
import { isoTime, providerIdOf } from "./json-file.ts";
import { ImportSourceError } from "./json-lines.ts";

// Supabase: its `auth.users` and `auth.identities`, read from the project's Postgres (a postgres:// URL) or
// from CSV files of the two tables (`\copy (select * from auth.users) to users.csv csv header`, and the same
// for auth.identities). Carries over: id, email and its confirmation, the name and avatar from the user's
// metadata, times, a ban still running (banned_until), the bcrypt password, and social identities (the
// provider's id for the user). Left behind: phone-only and anonymous users, deleted users, phone numbers,
// app metadata, MFA factors (Supabase keeps TOTP secrets where an export does not reach them).

type Row = Record<string, unknown>;

const text = (value: unknown): string | null =>
  value === null || value === undefined || value === "" ? null : String(value);

/** jsonb from Postgres is an object already; from a CSV it is its text. */
function objectOf(value: unknown): Row {
  if (typeof value === "object" && value !== null) return value as Row;
  if (typeof value !== "string" || value === "") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null ? (parsed as Row) : {};
  } catch {
    return {};
  }
}

/** The provider's id for the user: provider_id, else the identity data's `sub`. */
function accountOf(identity: SupabaseIdentityRow): { provider: string; accountId: string } | null {
  if (identity.provider === "email" || identity.provider === "phone") return null;
  const accountId = text(identity.provider_id) ?? text(objectOf(identity.identity_data).sub);
  return accountId ? { provider: providerIdOf(identity.provider), accountId } : null;
}

export function supabaseRecord(
  user: SupabaseUserRow,
  identities: SupabaseIdentityRow[],
  now: string,
): V1UserInput | string {
  if (text(user.deleted_at)) return "deleted in Supabase (deleted_at is set)";
  if (user.is_anonymous === true || String(user.is_anonymous) === "true") return "an anonymous user (no email)";
  const email = text(user.email);
  if (!email) return "no email address (phone-only users are not carried over)";
  const meta = objectOf(user.raw_user_meta_data);
  const createdAt = isoTime(user.created_at, now);
  const bannedUntil = text(user.banned_until) ? isoTime(user.banned_until, "") : "";
  const banned = bannedUntil !== "" && bannedUntil > now;
  return {
    id: user.id,
    email,
    emailVerified: text(user.email_confirmed_at) !== null,
    name: text(meta.full_name) ?? text(meta.name) ?? "",
    image: text(meta.avatar_url) ?? text(meta.picture),
    createdAt,
    updatedAt: isoTime(user.updated_at, createdAt),
    banned,
    banExpires: banned ? bannedUntil : null,
    password: text(user.encrypted_password),
    accounts: identities.map(accountOf).filter((account) => account !== null),
  };
}

const position = (user: SupabaseUserRow) => `user ${user.id}`;

async function* fromPostgres(url: string, now: string): AsyncGenerator<SourceRecord> {
  const handle = openDatabase(url, { create: false });
  try {
    let after = "";
    for (;;) {
      const page = await listSupabaseUsersAfter(handle.db, after, 500);
      if (page.length === 0) return;
      after = page[page.length - 1].id;
      const identities = await listSupabaseIdentities(
        handle.db,
        page.map((user) => user.id),
      );
      for (const user of page) {
        const record = supabaseRecord(
          user,
          identities.filter((identity) => identity.user_id === user.id),
          now,
        );
        yield typeof record === "string"
          ? { position: position(user), problem: record }
          : { position: position(user), record };
      }
    }
  } finally {
    await handle.close();
  }
}

/** A CSV file of a table, as rows keyed by its header's column names. */
async function* tableRows(path: string): AsyncGenerator<{ line: number; row: Row }> {
  let header: string[] | null = null;
  for await (const { line, cells } of csvRows(path)) {
    if (!header) {
      header = cells.map((name) => name.trim());
      continue;
    }
    const row: Row = {};
    for (const [at, name] of header.entries()) row[name] = cells[at] ?? "";
    yield { line, row };
  }
}

async function* fromCsv(
  usersFile: string,
  identitiesFile: string | undefined,
  now: string,
): AsyncGenerator<SourceRecord> {
  // Identities are few per user and the file is read once, before the users are streamed.
  const identities = new Map<string, SupabaseIdentityRow[]>();
  if (identitiesFile)
    for await (const { row } of tableRows(identitiesFile)) {
      const identity: SupabaseIdentityRow = {
        user_id: String(row.user_id ?? ""),
        provider: String(row.provider ?? ""),
        provider_id: text(row.provider_id) ?? text(row.id),
        identity_data: row.identity_data,
      };
      identities.set(identity.user_id, [...(identities.get(identity.user_id) ?? []), identity]);
    }
  for await (const { line, row } of tableRows(usersFile)) {
    if (!text(row.id)) {
      yield { position: `line ${line}`, problem: "no id column (export auth.users with its header)" };
      continue;
    }
    const user = row as unknown as SupabaseUserRow;
    const record = supabaseRecord(user, identities.get(user.id) ?? [], now);
    yield typeof record === "string"
      ? { position: `line ${line}`, problem: record }
      : { position: `line ${line}`, record };
  }
}

export function openSupabase(files: string[]): RecordStream {
  const [first, identities] = files;
  const now = new Date().toISOString();
  if (/^postgres(ql)?:\/\//.test(first))
    return { header: { hashConfigs: {} }, records: () => fromPostgres(first, now) };
  for (const file of files)
    if (!existsSync(file))
      throw new ImportSourceError(
        `no file at ${file} (a postgres:// URL, or CSV files of auth.users and auth.identities)`,
      );
  return { header: { hashConfigs: {} }, records: () => fromCsv(first, identities, now) };
}
