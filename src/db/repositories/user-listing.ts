import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { DialectName } from "../driver.ts";
import { columnMatches, type LikePosition } from "../like.ts";
import type { Database, Db, UserRow } from "../schema.ts";

// One page of users searched, filtered and sorted by columns the caller names (/admin/list-users). The
// column names are checked by the caller against LISTABLE_USER_FIELDS; values are always bound parameters.

export const LISTABLE_USER_FIELDS = [
  "id",
  "email",
  "name",
  "emailVerified",
  "image",
  "createdAt",
  "updatedAt",
  "username",
  "displayUsername",
  "role",
  "banned",
  "banReason",
  "banExpires",
] as const;
export type ListableUserField = (typeof LISTABLE_USER_FIELDS)[number];

export type ComparisonOperator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

export interface UserPageQuery {
  /** Text the column holds (`%` and `_` match themselves). */
  search?: { field: "email" | "name"; value: string; position: LikePosition };
  /** A comparison with a value of the column's own type (booleans for flags, epoch ms for dates), or a text match. */
  filter?: { field: ListableUserField } & (
    | { operator: ComparisonOperator; value: string | number | boolean }
    | { operator: "contains"; value: string }
  );
  sort?: { field: ListableUserField; direction: "asc" | "desc" };
  limit: number;
  offset: number;
}

type Eb = ExpressionBuilder<Database, "user">;

const SQL_OPERATORS = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

function filterExpression(
  eb: Eb,
  dialect: DialectName,
  filter: NonNullable<UserPageQuery["filter"]>,
): Expression<SqlBool> {
  const ref = eb.ref(filter.field);
  if (filter.operator === "contains") return columnMatches(ref, filter.value, "contains");
  const { value, operator } = filter;
  if (typeof value === "boolean" && (operator === "eq" || operator === "ne")) {
    // SQLite stores booleans as 0/1; a never-banned user has banned null, which counts as false.
    const flag = (b: boolean) => (dialect === "sqlite" ? Number(b) : b) as never;
    const wantsTrue = (operator === "eq") === value;
    return wantsTrue ? eb(ref, "=", flag(true)) : eb.or([eb(ref, "=", flag(false)), eb(ref, "is", null)]);
  }
  return eb(ref, SQL_OPERATORS[operator], value as never);
}

/** The page and the number of users matching (newest first unless sorted; the id breaks ties). */
export async function listUserPage(
  db: Db,
  dialect: DialectName,
  query: UserPageQuery,
): Promise<{ users: UserRow[]; total: number }> {
  const where = (eb: Eb): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.search)
      conditions.push(columnMatches(eb.ref(query.search.field), query.search.value, query.search.position));
    if (query.filter) conditions.push(filterExpression(eb, dialect, query.filter));
    return eb.and(conditions);
  };
  // The id breaks ties, so pages neither overlap nor skip rows when many users share a sort value.
  const select = db
    .selectFrom("user")
    .selectAll()
    .where(where)
    .orderBy(query.sort?.field ?? "createdAt", query.sort?.direction ?? "asc")
    .orderBy("id", "asc");
  const [users, count] = await Promise.all([
    select.limit(query.limit).offset(query.offset).execute(),
    db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll<string | number>().as("total"))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { users, total: Number(count.total) };
}
