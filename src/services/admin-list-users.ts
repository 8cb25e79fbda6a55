import { type ExpressionBuilder, type Expression, type SqlBool, sql } from "kysely";
import type { AuthContext } from "../context.ts";
import type { Database, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";

// /admin/list-users: search, filter, sort and page over users. Field names come from the caller, so they
// are checked against a fixed list before they reach SQL; values are always bound parameters.

export const LISTABLE_USER_FIELDS = [
  "id", "email", "name", "emailVerified", "image", "createdAt", "updatedAt",
  "username", "displayUsername", "role", "banned", "banReason", "banExpires",
] as const;
export type ListableUserField = (typeof LISTABLE_USER_FIELDS)[number];

const BOOLEAN_FIELDS = new Set<ListableUserField>(["emailVerified", "banned"]);
const DATE_FIELDS = new Set<ListableUserField>(["createdAt", "updatedAt", "banExpires"]);

export type SearchOperator = "contains" | "starts_with" | "ends_with";
export type FilterOperator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "contains";

export interface ListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name";
  searchOperator?: SearchOperator;
  filterField?: string;
  filterValue?: string | number | boolean;
  filterOperator?: FilterOperator;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  limit?: number;
  offset?: number;
}

export const DEFAULT_LIST_LIMIT = 100;

type Eb = ExpressionBuilder<Database, "user">;

function listableField(field: string, parameter: string): ListableUserField {
  if ((LISTABLE_USER_FIELDS as readonly string[]).includes(field)) return field as ListableUserField;
  throw new AuthError("VALIDATION_ERROR", { message: `${parameter} must be one of ${LISTABLE_USER_FIELDS.join(", ")}` });
}

/** `%` and `_` in the caller's text match themselves, not any character. */
function likePattern(value: string, operator: SearchOperator): string {
  const escaped = value.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  if (operator === "starts_with") return `${escaped}%`;
  if (operator === "ends_with") return `%${escaped}`;
  return `%${escaped}%`;
}

function matchesText(eb: Eb, field: ListableUserField, value: string, operator: SearchOperator): Expression<SqlBool> {
  return sql<SqlBool>`lower(${eb.ref(field)}) like ${likePattern(value, operator)} escape '\\'`;
}

/** The filter value in the column's own type: booleans for flags, epoch milliseconds for dates. */
function columnValue(field: ListableUserField, value: string | number | boolean): string | number | boolean {
  if (BOOLEAN_FIELDS.has(field)) {
    if (value === true || value === "true" || value === 1 || value === "1") return true;
    if (value === false || value === "false" || value === 0 || value === "0") return false;
    throw new AuthError("VALIDATION_ERROR", { message: `filterValue must be true or false for ${field}` });
  }
  if (DATE_FIELDS.has(field)) {
    const ms = typeof value === "number" || /^\d+$/.test(String(value)) ? Number(value) : Date.parse(String(value));
    if (Number.isNaN(ms)) throw new AuthError("VALIDATION_ERROR", { message: `filterValue must be a date for ${field}` });
    return ms;
  }
  return String(value);
}

function filterExpression(ctx: AuthContext, eb: Eb, field: ListableUserField, raw: string | number | boolean, operator: FilterOperator): Expression<SqlBool> {
  if (operator === "contains") return matchesText(eb, field, String(raw), "contains");
  const value = columnValue(field, raw);
  const ref = eb.ref(field);
  if (typeof value === "boolean" && (operator === "eq" || operator === "ne")) {
    // SQLite stores booleans as 0/1; a never-banned user has banned null, which counts as false.
    const flag = (b: boolean) => (ctx.database.dialect === "sqlite" ? Number(b) : b) as never;
    const wantsTrue = (operator === "eq") === value;
    return wantsTrue ? eb(ref, "=", flag(true)) : eb.or([eb(ref, "=", flag(false)), eb(ref, "is", null)]);
  }
  if (typeof value === "boolean") throw new AuthError("VALIDATION_ERROR", { message: `filterOperator must be eq or ne for ${field}` });
  const op = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;
  return eb(ref, op[operator], value as never);
}

export async function listUsers(ctx: AuthContext, query: ListUsersQuery): Promise<{ users: UserRow[]; total: number; limit?: number; offset?: number }> {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const offset = query.offset ?? 0;
  const where = (eb: Eb): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.searchValue) {
      conditions.push(matchesText(eb, query.searchField ?? "email", query.searchValue, query.searchOperator ?? "contains"));
    }
    if (query.filterValue !== undefined && query.filterValue !== "") {
      const field = listableField(query.filterField ?? "email", "filterField");
      conditions.push(filterExpression(ctx, eb, field, query.filterValue, query.filterOperator ?? "eq"));
    }
    return eb.and(conditions);
  };
  const sortField = query.sortBy ? listableField(query.sortBy, "sortBy") : undefined;
  // The id breaks ties, so pages neither overlap nor skip rows when many users share a sort value.
  const select = ctx.db
    .selectFrom("user")
    .selectAll()
    .where(where)
    .orderBy(sortField ?? "createdAt", sortField ? (query.sortDirection ?? "asc") : "asc")
    .orderBy("id", "asc");
  const [users, count] = await Promise.all([
    select.limit(limit).offset(offset).execute(),
    ctx.db.selectFrom("user").select((eb) => eb.fn.countAll<string | number>().as("total")).where(where).executeTakeFirstOrThrow(),
  ]);
  // limit and offset are echoed only when the caller gave them, as Better Auth does.
  return { users, total: Number(count.total), limit: query.limit, offset: query.offset };
}
