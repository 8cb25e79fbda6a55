import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db, UserRow } from "../schema.ts";
import { sortExpression, type UserSearchMatch } from "./user-search-conditions.ts";
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
  const where = [...plan.list];
  if (query.from) {
    const { value, id } = query.from.position;
    where.push(sql<SqlBool>`(${key}, "user"."id") ${ascending ? sql`>` : sql`<`} (${value}, ${id})`);
  }
  // A driven page sorts the driver's few rows: `+key` keeps SQLite from walking the sort's index instead.
  const order = plan.walk || query.dialect === "postgres" ? key : sql`+${key}`;
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

/**
 * One page of the users matching, in the query's order, and how many match: exactly up to `countCap`,
 * `countCap + 1` for more.
 */
export async function searchUserRows(
  db: Db,
  query: UserSearchQuery,
  countCap: number,
): Promise<{ rows: UserRow[]; counted: number }> {
  const plan = await planSearch(db, query, countCap);
  const rows = await listRows(db, query, plan);
  const counted = typeof plan.count === "number" ? plan.count : await countRows(db, plan.count, countCap);
  return { rows, counted };
}

/** Every distinct role string stored, read by stepping along the role index (one lookup per role string). */
export async function listStoredRoles(db: Db): Promise<string[]> {
  const roles: string[] = [];
  let after: string | null = null;
  for (let step = 0; step < 1000; step++) {
    let next = db.selectFrom("user").select((eb) => eb.fn.min("role").as("role"));
    if (after !== null) next = next.where("role", ">", after);
    const row = await next.executeTakeFirst();
    if (row?.role === null || row?.role === undefined) break;
    roles.push(row.role);
    after = row.role;
  }
  return roles;
}
