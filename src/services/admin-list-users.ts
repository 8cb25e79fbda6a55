import type { AuthContext } from "../context.ts";
import {
  LISTABLE_USER_FIELDS,
  type ListableUserField,
  listUserPage,
  type UserPageQuery,
} from "../db/repositories/user-listing.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";

// /admin/list-users: search, filter, sort and page over users. Field names come from the caller, so they
// are checked against a fixed list before they reach the query; values are always bound parameters.

export { LISTABLE_USER_FIELDS };

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

function listableField(field: string, parameter: string): ListableUserField {
  if ((LISTABLE_USER_FIELDS as readonly string[]).includes(field)) return field as ListableUserField;
  throw new AuthError("VALIDATION_ERROR", {
    message: `${parameter} must be one of ${LISTABLE_USER_FIELDS.join(", ")}`,
  });
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
    if (Number.isNaN(ms))
      throw new AuthError("VALIDATION_ERROR", { message: `filterValue must be a date for ${field}` });
    return ms;
  }
  return String(value);
}

function userFilter(ctx: AuthContext, query: ListUsersQuery): UserPageQuery["filter"] {
  if (query.filterValue === undefined || query.filterValue === "") return undefined;
  const field = listableField(query.filterField ?? "email", "filterField");
  const dialect = ctx.database.dialect;
  const operator = query.filterOperator ?? "eq";
  if (operator === "contains") return { field, dialect, operator, value: String(query.filterValue) };
  const value = columnValue(field, query.filterValue);
  if (typeof value === "boolean" && operator !== "eq" && operator !== "ne") {
    throw new AuthError("VALIDATION_ERROR", { message: `filterOperator must be eq or ne for ${field}` });
  }
  return { field, dialect, operator, value };
}

export async function listUsers(
  ctx: AuthContext,
  query: ListUsersQuery,
): Promise<{ users: UserRow[]; total: number; limit?: number; offset?: number }> {
  const search = query.searchValue
    ? { fields: [query.searchField ?? "email"], value: query.searchValue, position: query.searchOperator ?? "contains" }
    : undefined;
  // Unsorted: by creation time, oldest first.
  const sort = query.sortBy
    ? { field: listableField(query.sortBy, "sortBy"), direction: query.sortDirection ?? "asc" }
    : { field: "createdAt" as const, direction: "asc" as const };
  const filter = userFilter(ctx, query);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const page = await listUserPage(ctx.db, { search, filter, sort, limit, offset: query.offset ?? 0 });
  // limit and offset are echoed only when the caller gave them, as Better Auth does.
  return { ...page, limit: query.limit, offset: query.offset };
}
