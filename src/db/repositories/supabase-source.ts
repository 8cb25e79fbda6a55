import { sql } from "kysely";
import type { Db } from "../schema.ts";

// The reads of `authd import supabase` from a Supabase project's Postgres (issue 33): its `auth.users` a page
// at a time in id order, and the identities of a page. Nothing is written there.

export interface SupabaseUserRow {
  id: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: unknown;
  raw_user_meta_data: unknown;
  created_at: unknown;
  updated_at: unknown;
  banned_until: unknown;
  deleted_at: unknown;
  is_anonymous: boolean | null;
}

export interface SupabaseIdentityRow {
  user_id: string;
  provider: string;
  provider_id: string | null;
  identity_data: unknown;
}

export async function listSupabaseUsersAfter(db: Db, afterId: string, limit: number): Promise<SupabaseUserRow[]> {
  // is_anonymous exists since 2024; to_jsonb(u) reads it where it exists and answers null where it does not.
  const result = await sql<SupabaseUserRow>`
    select u.id::text as id, u.email, u.encrypted_password, u.email_confirmed_at, u.raw_user_meta_data,
           u.created_at, u.updated_at, u.banned_until, u.deleted_at,
           (to_jsonb(u) ->> 'is_anonymous')::boolean as is_anonymous
    from auth.users u
    where u.id::text > ${afterId}
    order by u.id::text
    limit ${limit}`.execute(db);
  return result.rows;
}

export async function listSupabaseIdentities(db: Db, userIds: string[]): Promise<SupabaseIdentityRow[]> {
  if (userIds.length === 0) return [];
  // provider_id is the provider's own id for the user since 2023; before, the identity's id was.
  const result = await sql<SupabaseIdentityRow>`
    select i.user_id::text as user_id, i.provider, coalesce(to_jsonb(i) ->> 'provider_id', i.id::text) as provider_id,
           i.identity_data
    from auth.identities i
    where i.user_id::text in (${sql.join(userIds)})
    order by i.provider`.execute(db);
  return result.rows;
}
