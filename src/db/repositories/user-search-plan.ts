import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../schema.ts";
import {
  type UserCondition,
  type UserSearchMatch,
  type UserSortKey,
  userConditions,
} from "./user-search-conditions.ts";

// How a user search is answered. Each condition's users are counted first, up to a limit (a few index steps),
// and the total is the lone condition's count, or counted from the condition holding the fewest users (a
// sample of them when they are many: "at least"). The page:
// - SQLite keeps no statistics: left to itself it starts from any condition an index can serve, however many
//   users that condition holds (it would sort every "user" for a page of 50). So a condition holding few
//   users drives: its rows are read through its index, checked and sorted; otherwise the sort's index is
//   read in order and each row checked, which meets a page of matches soon when the conditions match often
//   (a search "j", "every verified user").
// - Postgres keeps statistics and plans the page by itself.

export interface SearchPlan {
  /** The page's conditions, and whether its order comes from an index walked in that order. */
  list: RawBuilder<SqlBool>[];
  walk: boolean;
  /**
   * The count: known already (the lone condition's, counted while planning), the conditions to count, or
   * a sample of one condition's users checked against the rest (`more`: it holds more, so a lower bound).
   */
  count:
    | number
    | RawBuilder<SqlBool>[]
    | { sample: RawBuilder<unknown>; residual: RawBuilder<SqlBool>[]; more: boolean };
}

interface Sized {
  condition: UserCondition;
  size: number;
}

/** The counts are exact up to this for the choice of the count's driver. */
const REFINED_LIMIT = 50_000;
/** A count driven by a condition holding more users reads this many of them and answers "at least". */
const COUNTED_ROWS = 5_000;

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
  if (conditions.length === 0) return { list: [], walk: true, count: [] };
  if (query.dialect === "postgres") return planForPostgres(db, conditions, query.sort.key, countCap);
  const users = await userBound(db);
  // Driving reads all of a condition's rows, in no order; walking reads about page × users ÷ matches. Newest
  // first, a walk reads the table in the order it was written (users are inserted as they are created), about
  // four times quicker a row than reading here and there. They cost the same near √(page × users × that),
  // kept between 1,000 and 10,000.
  const walkRowCost = query.sort.key === "created" ? 0.25 : 1;
  const drivingLimit = Math.round(Math.min(10_000, Math.max(1_000, Math.sqrt((query.limit * users) / walkRowCost))));
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
  const smallest = [...sized].sort((a, b) => a.size - b.size)[0];
  const known = sized.length === 1 && only && only.size !== Infinity ? only.size : undefined;
  if (smallest && smallest.size <= drivingLimit) return driven(smallest.condition, known);
  // By email or name, a prefix search's users bunch together: read them all and sort them, while not too many.
  const bunched = newestFirst ? undefined : sized.find((entry) => entry.condition.bunched);
  if (bunched) {
    const [closer] = await estimateAll(db, [bunched.condition], REFINED_LIMIT + 1);
    if (closer && closer.size <= REFINED_LIMIT) {
      const plan = driven(bunched.condition, known);
      const counted = sized.map((entry) => (entry.condition === closer.condition ? closer : entry));
      return known === undefined ? { ...plan, count: countFrom(conditions, smallestOf(counted)) } : plan;
    }
  }
  if (sized.length === 1) return { list: walked, walk: true, count: known ?? walked };
  // Several conditions, each holding many users: counted closer, they say whether their matches are rare
  // enough (taken as independent) that reading the fewest is quicker than walking in order.
  const refined = await estimateAll(
    db,
    sized.filter((entry) => entry.size !== Infinity).map((entry) => entry.condition),
    REFINED_LIMIT + 1,
  );
  const best = smallestOf(refined);
  const expected = refined.reduce((product, entry) => (product * entry.size) / users, users);
  const walkedRows = (query.limit * users * walkRowCost) / Math.max(expected, 1);
  const count = countFrom(conditions, best);
  if (best && best.size <= REFINED_LIMIT && best.size < walkedRows) return { ...driven(best.condition), count };
  return { list: walked, walk: true, count };
}

async function planForPostgres(
  db: Db,
  conditions: UserCondition[],
  sortKey: UserSortKey,
  countCap: number,
): Promise<SearchPlan> {
  const natural = conditions.map((condition) => condition.driving);
  const sized = await estimateAll(db, conditions, countCap + 1);
  // By email or name, a prefix search's users bunch together; sorted, not read in that order (see bunched).
  const walk = sortKey === "created" || !conditions.some((condition) => condition.bunched);
  const [only] = sized;
  if (sized.length === 1 && only && only.size !== Infinity) return { list: natural, walk, count: only.size };
  const best = smallestOf(sized);
  if (!best) return { list: natural, walk, count: natural };
  const residual = conditions.filter((condition) => condition !== best.condition).map((each) => each.residual);
  // All of the fewest while they are few (then exact), else a sample of them.
  const count = { sample: best.condition.sample(COUNTED_ROWS), residual, more: best.size > COUNTED_ROWS };
  return { list: natural, walk, count };
}

/** The estimate holding the fewest users; of equal ones, one read through its index before one collecting ids. */
function smallestOf(sized: Sized[]): Sized | undefined {
  return sized
    .filter((entry) => entry.size !== Infinity)
    .sort(
      (a, b) => a.size - b.size || Number(a.condition.collects ?? false) - Number(b.condition.collects ?? false),
    )[0];
}

/** Counted from the condition holding the fewest users: all of them while few, else a bounded sample. */
function countFrom(conditions: UserCondition[], best: Sized | undefined): SearchPlan["count"] {
  if (!best) return drivenBy(conditions, undefined);
  if (best.size <= COUNTED_ROWS) return drivenBy(conditions, best.condition);
  const residual = conditions.filter((condition) => condition !== best.condition).map((each) => each.residual);
  return { sample: best.condition.sample(COUNTED_ROWS), residual, more: true };
}
