import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db, UserRow } from "../schema.ts";
import { byIndex, sortExpression, type UserSearchMatch } from "./user-search-conditions.ts";
import { planSearch, type SearchPlan } from "./user-search-plan.ts";

// The operators' user directory (web console, `authd users list`, terminal UI): a search, filters, a sort and
// a page, answered from indexes at a million users (migration 20261127214500):
// - each sort has the id as tie-break and an index in that order, so a page is read in order and a cursor
//   (the last row's sort value and id) continues where the page ended, however deep;
// - which condition drives the query (is read through its index) is chosen by user-search-plan.ts;
// - the total is counted up to a cap: a million matches would be a million index entries read.

export type {
  UserSearchFilters,
  UserSearchMatch,
  UserSortKey,
} from "./user-search-conditions.ts";
export { lowerAsDatabase, sortExpression } from "./user-search-conditions.ts";

/** Where a page starts: after (or before) the row with this sort value and id. */
export interface UserSearchPosition {
  value: string | number;
  id: string;
}

export interface UserSearchQuery extends UserSearchMatch {
  sort: { key: "created" | "email" | "name"; direction: "asc" | "desc" };
  from?: { side: "after" | "before"; position: UserSearchPosition };
  limit: number;
  offset?: number;
}

const all = (conditions: RawBuilder<SqlBool>[]) =>
  conditions.length > 0 ? sql<SqlBool>`${sql.join(conditions, sql` and `)}` : sql<SqlBool>`1 = 1`;

async function listRows(db: Db, query: UserSearchQuery, plan: SearchPlan): Promise<UserRow[]> {
  const key = sortExpression(query.dialect, query.sort.key);
  const backwards = query.from?.side === "before";
  const ascending = (query.sort.direction === "asc") !== backwards;
  const direction = ascending ? sql`asc` : sql`desc`;
  // A driven page sorts the driver's rows: the key written so that no index serves it keeps the database
  // from walking the sort's index instead, in the order as in the cursor's bound (which would read every row
  // after the cursor). SQLite: `+key`; Postgres: the text with nothing appended (created is never sorted so).
  const unindexed = !plan.walk;
  const order = !unindexed ? key : query.dialect === "sqlite" ? sql`+${key}` : sql`(${key} || '')`;
  const id = !unindexed ? sql`"user"."id"` : query.dialect === "sqlite" ? sql`+"user"."id"` : sql`("user"."id" || '')`;
  const where = [...plan.list];
  if (query.from) {
    const position = query.from.position;
    where.push(sql<SqlBool>`(${order}, ${id}) ${ascending ? sql`>` : sql`<`} (${position.value}, ${position.id})`);
  }
  const result = await sql<UserRow>`select "user".* from "user" where ${all(where)}
    order by ${order} ${direction}, "user"."id" ${direction} limit ${query.limit} offset ${query.offset ?? 0}`.execute(
    db,
  );
  // A page read backwards (before a cursor) is turned to the query's order.
  return backwards ? result.rows.reverse() : result.rows;
}

async function countRows(db: Db, conditions: RawBuilder<SqlBool>[], cap: number): Promise<number> {
  const result = await sql<{ total: number | string }>`select count(*) as "total" from
    (select 1 from "user" where ${all(conditions)} limit ${cap + 1}) as "matching"`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** How many of a sample of one condition's users pass the other conditions, and whether it was full. */
async function countSample(
  db: Db,
  sample: { sample: RawBuilder<unknown>; residual: RawBuilder<SqlBool>[]; more: boolean },
): Promise<{ counted: number; atLeast: boolean }> {
  // The sample is named "user", so the other conditions read its columns as they read the table's.
  const result = await sql<{ matched: number | string | null }>`select
    sum(case when ${all(sample.residual)} then 1 else 0 end) as "matched"
    from (${sample.sample}) as "user"`.execute(db);
  const row = result.rows[0];
  return { counted: Number(row?.matched ?? 0), atLeast: sample.more };
}

async function countPlanned(db: Db, count: Exclude<SearchPlan["count"], RawBuilder<SqlBool>[]>) {
  if (typeof count === "number") return { counted: count, atLeast: false };
  return countSample(db, count);
}

/**
 * One page of the users matching, in the query's order, and how many match: exactly up to `countCap`
 * (`countCap + 1` for more), or at least `counted` (a few conditions each holding many users, on SQLite).
 */
export async function searchUserRows(
  db: Db,
  query: UserSearchQuery,
  countCap: number,
): Promise<{ rows: UserRow[]; counted: number; atLeast: boolean }> {
  // Planning and counting from an index go by index; a count of conditions no index serves scans freely.
  const { plan, counted } = await byIndex(db, query.dialect, async (reader) => {
    const plan = await planSearch(reader, query, countCap);
    return { plan, counted: Array.isArray(plan.count) ? undefined : await countPlanned(reader, plan.count) };
  });
  const count = counted ?? {
    counted: await countRows(db, plan.count as RawBuilder<SqlBool>[], countCap),
    atLeast: false,
  };
  return { rows: await listRows(db, query, plan), ...count };
}

/** Every distinct value of an indexed column, read by stepping along its index (one lookup per value). */
async function distinctValues(db: Db, table: "user" | "account", column: "role" | "providerId"): Promise<string[]> {
  const values: string[] = [];
  let after: string | null = null;
  for (let step = 0; step < 1000; step++) {
    const next: { value: string | null } | undefined = (
      await sql<{ value: string | null }>`select min(${sql.ref(column)}) as "value" from ${sql.table(table)}
        ${after === null ? sql`` : sql`where ${sql.ref(column)} > ${after}`}`.execute(db)
    ).rows[0];
    if (next?.value === null || next?.value === undefined) break;
    values.push(next.value);
    after = next.value;
  }
  return values;
}

/** Every distinct role string stored (a user's roles are one comma-separated string). */
export function listStoredRoles(db: Db): Promise<string[]> {
  return distinctValues(db, "user", "role");
}

/** Every provider some account is of (`credential`: a password). */
export function listStoredProviders(db: Db): Promise<string[]> {
  return distinctValues(db, "account", "providerId");
}

export function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("user")
    .selectAll()
    .where("id", "in", [...ids])
    .execute();
}
