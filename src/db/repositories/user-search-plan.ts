import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../schema.ts";
import {
  type UserCondition,
  type UserSearchMatch,
  type UserSortKey,
  userConditions,
} from "./user-search-conditions.ts";

// How SQLite answers a user search. It keeps no statistics: left to itself it starts from any condition an
// index can serve, however many users that condition holds (it would sort every "user" for a page of 50).
// So each condition's users are counted first, up to a limit (a few index steps), and then:
// - a condition holding few users drives: its rows are read through its index, checked and sorted;
// - otherwise the sort's index is read in order and each row checked, which meets a page of matches soon
//   when the conditions match often (a search "j", "every verified user");
// - the total is the lone condition's count, else counted from the condition holding the fewest users.
// Postgres keeps statistics and plans the natural query by itself.

export interface SearchPlan {
  /** The page's conditions, and whether its order comes from an index walked in that order. */
  list: RawBuilder<SqlBool>[];
  walk: boolean;
  /** The count's conditions, or the count itself (the lone condition's, counted while planning). */
  count: RawBuilder<SqlBool>[] | number;
}

interface Sized {
  condition: UserCondition;
  size: number;
}

/** The counts are exact up to this for the choice of the count's driver. */
const REFINED_LIMIT = 100_000;

function drivenBy(conditions: UserCondition[], driver: UserCondition | undefined): RawBuilder<SqlBool>[] {
  return conditions.map((condition) => (condition === driver ? condition.driving : condition.residual));
}

async function estimateAll(db: Db, conditions: UserCondition[], limit: number): Promise<Sized[]> {
  const sized: Sized[] = [];
  // One after another: SQLite has one connection.
  for (const condition of conditions)
    sized.push({ condition, size: condition.estimate ? await condition.estimate(db, limit) : Infinity });
  return sized;
}

/** The users ever inserted (the highest rowid, one index step): a bound on those there are. */
async function userBound(db: Db): Promise<number> {
  const result = await sql<{ n: number | null }>`select max(rowid) as "n" from "user"`.execute(db);
  return Math.max(1, Number(result.rows[0]?.n ?? 0));
}

export async function planSearch(
  db: Db,
  query: UserSearchMatch & { sort: { key: UserSortKey }; limit: number },
  countCap: number,
): Promise<SearchPlan> {
  const conditions = userConditions(query);
  if (query.dialect === "postgres") {
    const natural = conditions.map((condition) => condition.driving);
    return { list: natural, walk: true, count: natural };
  }
  if (conditions.length === 0) return { list: [], walk: true, count: [] };
  const users = await userBound(db);
  // Driving reads all of a condition's rows; walking reads about page × users ÷ matches. They cost the same
  // near √(page × users), kept between 1,000 and 10,000.
  const drivingLimit = Math.round(Math.min(10_000, Math.max(1_000, Math.sqrt(query.limit * users))));
  const sized = await estimateAll(db, conditions, Math.max(drivingLimit, countCap) + 1);
  const newestFirst = query.sort.key === "created";
  const driven = (driver: UserCondition, count?: number): SearchPlan => {
    const conditionsDriven = drivenBy(conditions, driver);
    // Newest first, a partial index in (createdAt, id) order is walked as it is, unsorted.
    return { list: conditionsDriven, walk: newestFirst && driver.ordered === true, count: count ?? conditionsDriven };
  };
  const ordered = newestFirst ? conditions.find((condition) => condition.ordered) : undefined;
  const walked = drivenBy(conditions, ordered);
  const [only] = sized;
  if (sized.length === 1 && only) {
    const known = only.size === Infinity ? undefined : only.size;
    if (only.size <= drivingLimit) return driven(only.condition, known);
    return { list: walked, walk: true, count: known ?? walked };
  }
  const smallest = [...sized].sort((a, b) => a.size - b.size)[0];
  if (smallest && smallest.size <= drivingLimit) return driven(smallest.condition);
  // Several conditions, each holding many users: counted closer, they say whether their matches are rare
  // enough (taken as independent) that reading the fewest is quicker than walking in order.
  const refined = await estimateAll(
    db,
    sized.filter((entry) => entry.size !== Infinity).map((entry) => entry.condition),
    REFINED_LIMIT + 1,
  );
  const best = refined.sort(
    (a, b) => a.size - b.size || Number(a.condition.collects ?? false) - Number(b.condition.collects ?? false),
  )[0];
  const expected = refined.reduce((product, entry) => (product * entry.size) / users, users);
  const walkedRows = (query.limit * users) / Math.max(expected, 1);
  if (best && best.size <= REFINED_LIMIT && best.size < walkedRows) return driven(best.condition);
  return { list: walked, walk: true, count: drivenBy(conditions, best?.condition) };
}
