import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { DialectName } from "../driver.ts";
import { anyColumnMatches, columnMatches, type LikePosition } from "../like.ts";
import type { Database, Db, UserRow } from "../schema.ts";

// One page of users searched, filtered and sorted by columns the caller names: the one user listing,
// behind /admin/list-users and the operators' directory (CLI and terminal UI) alike. The column names are
// checked by the caller against LISTABLE_USER_FIELDS; values are always bound parameters.

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

export type SearchableUserField = "email" | "name" | "username";

/** Which users a listing holds. */
export interface UserMatch {
  /** Text one of the columns holds (`%` and `_` match themselves). */
  search?: { fields: readonly SearchableUserField[]; value: string; position: LikePosition };
  /**
   * A comparison with a value of the column's own type (booleans for flags, epoch ms for dates), or a text
   * match; the dialect says how a flag is stored.
   */
  filter?: { field: ListableUserField; dialect: DialectName } & (
    | { operator: ComparisonOperator; value: string | number | boolean }
    | { operator: "contains"; value: string }
  );
}

export interface UserPageQuery extends UserMatch {
  sort: { field: ListableUserField; direction: "asc" | "desc" };
  limit: number;
  offset: number;
}

type Eb = ExpressionBuilder<Database, "user">;

const SQL_OPERATORS = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

function filterExpression(eb: Eb, filter: NonNullable<UserMatch["filter"]>): Expression<SqlBool> {
  const ref = eb.ref(filter.field);
  if (filter.operator === "contains") return columnMatches(ref, filter.value, "contains");
  const { value, operator, dialect } = filter;
  if (typeof value === "boolean" && (operator === "eq" || operator === "ne")) {
    // SQLite stores booleans as 0/1; a never-banned user has banned null, which counts as false.
    const flag = (b: boolean) => (dialect === "sqlite" ? Number(b) : b) as never;
    const wantsTrue = (operator === "eq") === value;
    return wantsTrue ? eb(ref, "=", flag(true)) : eb.or([eb(ref, "=", flag(false)), eb(ref, "is", null)]);
  }
  return eb(ref, SQL_OPERATORS[operator], value as never);
}

function whereUsersMatch(query: UserMatch) {
  return (eb: Eb): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    const { search, filter } = query;
    if (search) conditions.push(anyColumnMatches(search.fields, search.value, search.position));
    if (filter) conditions.push(filterExpression(eb, filter));
    return eb.and(conditions);
  };
}

/** A page of the users matching, in the order asked (the id breaks ties). */
export function listUserRows(db: Db, query: UserPageQuery): Promise<UserRow[]> {
  // The id breaks ties, so pages neither overlap nor skip rows when many users share a sort value.
  return db
    .selectFrom("user")
    .selectAll()
    .where(whereUsersMatch(query))
    .orderBy(query.sort.field, query.sort.direction)
    .orderBy("id", "asc")
    .limit(query.limit)
    .offset(query.offset)
    .execute();
}

export async function countUserRows(db: Db, query: UserMatch): Promise<number> {
  const row = await db
    .selectFrom("user")
    .select((eb) => eb.fn.countAll<string | number>().as("total"))
    .where(whereUsersMatch(query))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The page and the number of users matching. */
export async function listUserPage(db: Db, query: UserPageQuery): Promise<{ users: UserRow[]; total: number }> {
  const [users, total] = await Promise.all([listUserRows(db, query), countUserRows(db, query)]);
  return { users, total };
}
