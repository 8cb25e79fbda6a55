import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { DialectName } from "../driver.ts";
import { anyColumnMatches } from "../like.ts";
import type { Db } from "../schema.ts";

// The conditions of a user search, each written twice: `driving`, so the database reads it through its
// index (the query starts from the few rows it holds), and `residual`, a check of rows read another way.
// On SQLite a residual is written so that no index can serve it (`+column`, a correlated EXISTS): SQLite keeps
// no statistics, and left to itself it starts from any indexed condition, however many rows it holds
// (sorting a million users with the "user" role for a page of 50). user-search-plan.ts counts each
// candidate's rows, up to a limit, and lets the smallest drive. Postgres keeps statistics and plans a page by
// itself: both forms are the same there. Text compares bytewise on both dialects (Postgres: collate "C").

export type UserSortKey = "created" | "email" | "name";

export interface UserSearchFilters {
  /** A ban in force at `now` (an expired ban counts as none), or none. */
  banned?: boolean;
  emailVerified?: boolean;
  twoFactor?: boolean;
  passkey?: boolean;
  /** Holds an account of this provider (`credential`: a password). */
  provider?: string;
  /** Member of this organization. */
  organizationId?: string;
  /** One of these stored role strings, or (orUnset) no role at all. */
  roles?: { stored: readonly string[]; orUnset: boolean };
}

export interface UserSearchMatch extends UserSearchFilters {
  dialect: DialectName;
  now: number;
  search?: { text: string; match: "prefix" | "contains" };
}

export interface UserCondition {
  driving: RawBuilder<SqlBool>;
  residual: RawBuilder<SqlBool>;
  /** The distinct users it holds, counted up to `limit`; only for a condition an index can drive. */
  estimate?: (db: Db, limit: number) => Promise<number>;
  /** Read through an index in (createdAt, id) order: newest first needs no sort. */
  ordered?: boolean;
  /** Driving, it first collects its user ids (a subquery): only while they are few. */
  collects?: boolean;
  /**
   * Its users bunch together in the order of the email and the name (a prefix search): read in that order,
   * a page meets them all at once and the one after reads on to the end of the table.
   */
  bunched?: boolean;
  /** The first `limit` users it holds (all their columns), read through its index: a count's sample. */
  sample: (limit: number) => RawBuilder<unknown>;
}

/** The text as the database lower-cases it: SQLite's lower() changes ASCII letters only. */
export function lowerAsDatabase(dialect: DialectName, text: string): string {
  return dialect === "postgres" ? text.toLowerCase() : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The sort key as an expression, in byte order on Postgres as on SQLite. */
export function sortExpression(dialect: DialectName, key: UserSortKey): RawBuilder<unknown> {
  if (key === "created") return sql`"user"."createdAt"`;
  const column = key === "email" ? sql`"user"."email"` : sql`lower("user"."name")`;
  return dialect === "postgres" ? sql`${column} collate "C"` : column;
}

/** The least text greater than every text starting with `prefix` (its last character, plus one). */
function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0;
  const head = prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1));
  return head + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
}

type Column = (name: string) => RawBuilder<unknown>;

/** How a condition names a column: `"user"."x"`, or on SQLite as a residual `+"user"."x"` (no index). */
function columns(dialect: DialectName): { indexed: Column; scanned: Column } {
  const indexed: Column = (name) => sql.ref(`user.${name}`);
  const scanned: Column = dialect === "sqlite" ? (name) => sql`+${sql.ref(`user.${name}`)}` : indexed;
  return { indexed, scanned };
}

/** A flag as written in the partial indexes: 1/0 on SQLite, true/false on Postgres. */
const flag = (dialect: DialectName, value: boolean) => sql.lit(dialect === "sqlite" ? Number(value) : value);

/**
 * Run `work` (the counts) so that Postgres reads by index: counting up to a limit, it reckons a scan of the
 * table stops soon and prefers it to an index, then reads a quarter of a million rows for a search's 10,000
 * matches. A transaction of its own, so the setting ends with it; within a caller's transaction, as planned.
 */
export function byIndex<T>(db: Db, dialect: DialectName, work: (db: Db) => Promise<T>): Promise<T> {
  if (dialect !== "postgres" || db.isTransaction) return work(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    return work(trx);
  });
}

function limitedCount(db: Db, rows: RawBuilder<unknown>, limit: number): Promise<number> {
  return sql<{ total: number | string }>`select count(*) as "total" from (${rows} limit ${limit}) as "matching"`
    .execute(db)
    .then((result) => Number(result.rows[0]?.total ?? 0));
}

function onUser(drive: (column: Column) => RawBuilder<SqlBool>, dialect: DialectName, ordered = false): UserCondition {
  const { indexed, scanned } = columns(dialect);
  const driving = drive(indexed);
  return {
    driving,
    residual: drive(scanned),
    ordered,
    estimate: (db, limit) => limitedCount(db, sql`select 1 from "user" where ${driving}`, limit),
    sample: (limit) => sampleWhere(driving, limit),
  };
}

const sampleWhere = (where: RawBuilder<SqlBool>, limit: number) =>
  sql`select * from "user" where ${where} limit ${limit}`;

function scannedOnly(check: (column: Column) => RawBuilder<SqlBool>, dialect: DialectName): UserCondition {
  const residual = check(columns(dialect).scanned);
  return { driving: residual, residual, sample: (limit) => sampleWhere(residual, limit) };
}

function searchCondition(match: UserSearchMatch): UserCondition | undefined {
  const { dialect } = match;
  const text = match.search?.text.trim();
  if (!match.search || !text) return undefined;
  if (match.search.match === "contains") {
    const anywhere = anyColumnMatches(["user.id", "user.email", "user.name", "user.username"], text);
    return { driving: anywhere, residual: anywhere, sample: (limit) => sampleWhere(anywhere, limit) };
  }
  const low = lowerAsDatabase(dialect, text);
  const high = prefixEnd(low);
  const bytes = (value: RawBuilder<unknown>) => (dialect === "postgres" ? sql`${value} collate "C"` : value);
  const starts = (value: RawBuilder<unknown>) => sql`(${bytes(value)} >= ${low} and ${bytes(value)} < ${high})`;
  const prefix = onUser(
    (column) =>
      sql<SqlBool>`(${column("id")} = ${text} or ${starts(column("email"))} or ${starts(column("username"))} or ${starts(sql`lower(${column("name")})`)})`,
    dialect,
  );
  return { ...prefix, bunched: true };
}

function bannedCondition(match: UserSearchMatch): UserCondition | undefined {
  const { dialect, now } = match;
  if (match.banned === undefined) return undefined;
  if (match.banned)
    return onUser(
      (column) =>
        sql<SqlBool>`(${column("banned")} = ${flag(dialect, true)} and (${column("banExpires")} is null or ${column("banExpires")} > ${now}))`,
      dialect,
      true,
    );
  return scannedOnly(
    (column) =>
      sql<SqlBool>`(${column("banned")} is null or ${column("banned")} = ${flag(dialect, false)} or ${column("banExpires")} <= ${now})`,
    dialect,
  );
}

function flagCondition(match: UserSearchMatch, name: string, value: boolean | undefined, indexedWhen: boolean) {
  const { dialect } = match;
  if (value === undefined) return undefined;
  if (value === indexedWhen)
    return onUser((column) => sql<SqlBool>`${column(name)} = ${flag(dialect, value)}`, dialect, true);
  // emailVerified is never null; twoFactorEnabled is null for a user who never turned it on.
  return scannedOnly(
    (column) => sql<SqlBool>`(${column(name)} = ${flag(dialect, value)} or ${column(name)} is null)`,
    dialect,
  );
}

function roleCondition(match: UserSearchMatch): UserCondition | undefined {
  if (!match.roles) return undefined;
  const { stored, orUnset } = match.roles;
  return onUser((column) => {
    const either: RawBuilder<SqlBool>[] = [];
    if (stored.length > 0) either.push(sql<SqlBool>`${column("role")} in (${sql.join([...stored])})`);
    if (orUnset) either.push(sql<SqlBool>`${column("role")} is null or ${column("role")} = ''`);
    return either.length > 0 ? sql<SqlBool>`(${sql.join(either, sql` or `)})` : sql<SqlBool>`1 = 0`;
  }, match.dialect);
}

/** Users holding a row of `table` (with `where`): the ids collected when driving, a probe per user otherwise. */
function related(table: string, where: RawBuilder<SqlBool>, holds: boolean): UserCondition {
  const rows = sql`select "userId" from ${sql.table(table)} where ${where}`;
  const probe = sql<SqlBool>`exists (select 1 from ${sql.table(table)} where ${where} and ${sql.ref(`${table}.userId`)} = "user"."id")`;
  if (!holds) {
    const lacks = sql<SqlBool>`not ${probe}`;
    return { driving: lacks, residual: lacks, sample: (limit) => sampleWhere(lacks, limit) };
  }
  const ids = sql`select distinct "userId" from ${sql.table(table)} where ${where}`;
  return {
    driving: sql<SqlBool>`"user"."id" in (${rows})`,
    residual: probe,
    collects: true,
    estimate: (db, limit) => limitedCount(db, ids, limit),
    // The first ids in the index's order, then their users: no table read, no set of them all.
    sample: (limit) =>
      sql`select "user".* from (${ids} limit ${limit}) as "ids" inner join "user" on "user"."id" = "ids"."userId"`,
  };
}

export function userConditions(match: UserSearchMatch): UserCondition[] {
  const conditions = [
    searchCondition(match),
    bannedCondition(match),
    flagCondition(match, "emailVerified", match.emailVerified, false),
    flagCondition(match, "twoFactorEnabled", match.twoFactor, true),
    roleCondition(match),
    match.passkey === undefined ? undefined : related("passkey", sql<SqlBool>`1 = 1`, match.passkey),
    match.provider === undefined
      ? undefined
      : related("account", sql<SqlBool>`"account"."providerId" = ${match.provider}`, true),
    match.organizationId === undefined
      ? undefined
      : related("member", sql<SqlBool>`"member"."organizationId" = ${match.organizationId}`, true),
  ];
  return conditions.filter((condition) => condition !== undefined);
}
