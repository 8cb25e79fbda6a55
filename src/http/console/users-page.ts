import type { UserSearchRequest, UserWire } from "../../../ui/data.ts";
import { type ConsoleUserRow, type ConsoleUsersQuery, readUsersQuery, type Tristate } from "../../../ui/web/state.ts";
import { isAuthError } from "../../errors.ts";
import { consoleScreen } from "./frame.ts";

// The users screen (/console/users): the operators' user search (src/services/user-search.ts) with its
// filters, order and cursors, a page of 50 at a time, each row a link to the user and a box to choose it
// for a bulk action (users-bulk.ts).

const PAGE_SIZE = 50;

export function toConsoleUserRow(user: UserWire): ConsoleUserRow {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username ?? null,
    role: user.role ?? null,
    emailVerified: user.emailVerified,
    banned: user.banned === true,
    createdAt: user.createdAt,
  };
}

const flag = (value: Tristate): boolean | undefined => (value === "" ? undefined : value === "yes");

/** The service's request for the list's query. */
export function searchRequest(query: ConsoleUsersQuery, limit: number): UserSearchRequest {
  return {
    search: query.search || undefined,
    match: query.match === "contains" ? "contains" : "prefix",
    banned: flag(query.banned),
    emailVerified: flag(query.verified),
    twoFactor: flag(query.twoFactor),
    passkey: flag(query.passkey),
    provider: query.provider || undefined,
    organization: query.org || undefined,
    role: query.role || undefined,
    sort: query.sort,
    direction: query.order || undefined,
    cursor: query.cursor || undefined,
    offset: query.cursor ? undefined : query.offset,
    limit,
  };
}

export const usersScreen = consoleScreen("users", { user: ["list"] }, async (c, _ctx, access) => {
  const query = readUsersQuery((name) => c.req.query(name));
  const choices = await access.data.userFilterChoices();
  const common = { page: "console-users" as const, query, choices, limit: PAGE_SIZE };
  try {
    const found = await access.data.searchUsers(searchRequest(query, PAGE_SIZE));
    return {
      ...common,
      users: found.items.map(toConsoleUserRow),
      total: found.total,
      totalCapped: found.totalCapped,
      next: found.next,
      previous: found.previous,
      orgUnknown: false,
    };
  } catch (error) {
    // An organization filter naming none: an empty list saying so.
    if (!isAuthError(error) || error.key !== "ORGANIZATION_NOT_FOUND") throw error;
    const empty = { users: [], total: 0, totalCapped: false, next: null, previous: null };
    return { ...common, ...empty, orgUnknown: true };
  }
});

export const USERS_HANDLERS = {
  showUsers: usersScreen.show,
};
