import { type Kysely, PostgresAdapter, sql } from "kysely";

// Indexes for the operators' user directory (the web console's users list, `authd users list`), so that a
// search, a filter and a page stay quick at a million users:
// - each sort walks an index in order with the id as tie-break, so a page never sorts the table and a cursor
//   (the last row's sort value and id) starts the next page where this one ended. (createdAt, id) replaces
//   the index on createdAt alone, which it covers.
// - a search is a prefix of the email, the username or the lower-cased name, answered by a range over an
//   index. Postgres compares those in byte order ("C"), as SQLite does, so a prefix is one range in any
//   database collation and both dialects sort the same way.
// - banned, unverified and second-factor users are partial indexes in creation order: few rows, and the
//   newest of them are read first (the bans with their end, so counting bans in force reads the index
//   alone). The flags are written as SQLite stores them (1 and 0), because SQLite uses a partial index only
//   when the query names the same literal.
// - the role, so that "who is admin" reads the few users holding it; the users of a provider by account.

type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("user_created_at_idx").execute();
  await db.schema.createIndex("user_created_at_id_idx").on("user").columns(["createdAt", "id"]).execute();
  await db.schema.createIndex("user_role_idx").on("user").column("role").execute();
  await db.schema.createIndex("account_provider_user_idx").on("account").columns(["providerId", "userId"]).execute();
  if (isPostgres(db)) {
    await sql`create index "user_name_lower_idx" on "user" ((lower("name")) collate "C", "id")`.execute(db);
    await sql`create index "user_email_bytes_idx" on "user" ("email" collate "C")`.execute(db);
    await sql`create index "user_username_bytes_idx" on "user" ("username" collate "C") where "username" is not null`.execute(
      db,
    );
    await sql`create index "user_banned_idx" on "user" ("createdAt", "id", "banExpires") where "banned" = true`.execute(
      db,
    );
    await sql`create index "user_unverified_idx" on "user" ("createdAt", "id") where "emailVerified" = false`.execute(
      db,
    );
    await sql`create index "user_two_factor_idx" on "user" ("createdAt", "id") where "twoFactorEnabled" = true`.execute(
      db,
    );
    return;
  }
  // SQLite compares text bytewise already: the unique indexes on email and username serve prefixes and order.
  await sql`create index "user_name_lower_idx" on "user" (lower("name"), "id")`.execute(db);
  await sql`create index "user_banned_idx" on "user" ("createdAt", "id", "banExpires") where "banned" = 1`.execute(db);
  await sql`create index "user_unverified_idx" on "user" ("createdAt", "id") where "emailVerified" = 0`.execute(db);
  await sql`create index "user_two_factor_idx" on "user" ("createdAt", "id") where "twoFactorEnabled" = 1`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  const postgresOnly = ["user_email_bytes_idx", "user_username_bytes_idx"];
  for (const name of [
    "user_two_factor_idx",
    "user_unverified_idx",
    "user_banned_idx",
    "user_name_lower_idx",
    "user_role_idx",
    "account_provider_user_idx",
    "user_created_at_id_idx",
    ...(isPostgres(db) ? postgresOnly : []),
  ])
    await db.schema.dropIndex(name).execute();
  await db.schema.createIndex("user_created_at_idx").on("user").column("createdAt").execute();
}
