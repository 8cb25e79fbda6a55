import type { ConsoleFrame } from "./frame-state.ts";

// The users screen (/console/users) and its bulk actions' confirmation (/console/users-bulk/<action>): the
// states the server hands them, and the list's query as a URL carries it, read the same way on the server
// (what to ask) and in the browser (the links that keep it).

export interface ConsoleUserRow {
  id: string;
  name: string;
  email: string;
  username: string | null;
  role: string | null;
  emailVerified: boolean;
  banned: boolean;
  createdAt: string;
}

/** A yes/no filter: "" either. */
export type Tristate = "" | "yes" | "no";
export const USER_SORTS = ["created", "email", "name"] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** The list's search, filters, order and page, as its URL holds them. */
export interface ConsoleUsersQuery {
  search: string;
  /** "contains": the text anywhere (slow on large directories); "": the start of each field. */
  match: "" | "contains";
  banned: Tristate;
  verified: Tristate;
  twoFactor: Tristate;
  passkey: Tristate;
  provider: string;
  /** An organization's id or slug. */
  org: string;
  role: string;
  sort: UserSort;
  /** "": the sort's own (newest first, A to Z). */
  order: "" | "asc" | "desc";
  /** The page: a cursor of the previous one (or an offset), and the position of its first row, to show. */
  cursor: string;
  offset: number;
  from: number;
}

const TEXT_LIMIT = 256;
const CURSOR_LIMIT = 2048;
const TRISTATES: readonly string[] = ["", "yes", "no"];

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function count(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 0 ? number : fallback;
}

/** The query from a URL's parameters; anything unknown or out of bounds is its default. */
export function readUsersQuery(get: (name: string) => string | undefined): ConsoleUsersQuery {
  const text = (name: string, limit = TEXT_LIMIT) => (get(name) ?? "").trim().slice(0, limit);
  const tristate = (name: string) => oneOf(text(name), TRISTATES, "") as Tristate;
  const offset = count(get("offset"), 0);
  return {
    search: text("search"),
    match: oneOf(text("match"), ["", "contains"], ""),
    banned: tristate("banned"),
    verified: tristate("verified"),
    twoFactor: tristate("twoFactor"),
    passkey: tristate("passkey"),
    provider: text("provider"),
    org: text("org"),
    role: text("role"),
    sort: oneOf(text("sort"), USER_SORTS, "created"),
    order: oneOf(text("order"), ["", "asc", "desc"], ""),
    cursor: text("cursor", CURSOR_LIMIT),
    offset,
    from: Math.max(1, count(get("from"), offset + 1)),
  };
}

/** The query as URL parameters, defaults left out; `page: false` leaves the page out (a new search). */
export function usersQueryParams(query: ConsoleUsersQuery, page = true): Record<string, string> {
  const params: Record<string, string> = {};
  const { cursor, offset, from, sort, ...rest } = query;
  for (const [name, value] of Object.entries(rest)) if (value !== "") params[name] = value;
  if (sort !== "created") params.sort = sort;
  if (page && cursor) Object.assign(params, { cursor, from: String(from) });
  else if (page && offset > 0) params.offset = String(offset);
  return params;
}

export interface ConsoleUsersState {
  page: "console-users";
  console: ConsoleFrame;
  users: ConsoleUserRow[];
  /** Counted up to a cap: `totalCapped` says more match. */
  total: number;
  totalCapped: boolean;
  query: ConsoleUsersQuery;
  /** The cursors of the pages after and before this one. */
  next: string | null;
  previous: string | null;
  limit: number;
  /** What the provider and role filters offer. */
  choices: { providers: string[]; roles: string[] };
  /** The organization filter names no organization (the list is empty). */
  orgUnknown: boolean;
}

export const BULK_USER_ACTIONS = ["ban", "unban", "revoke-sessions"] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];

/** The ban lengths offered, in seconds ("" until unbanned). */
export const BAN_LENGTHS = ["", "3600", "86400", "604800", "2592000"] as const;

export interface ConsoleUsersConfirmState {
  page: "console-users-confirm";
  console: ConsoleFrame;
  action: BulkUserAction;
  /** The users chosen that exist. */
  users: ConsoleUserRow[];
  /** How many chosen no longer exist. */
  missing: number;
  /** The list the users were chosen from (its URL parameters), to go back to. */
  back: string;
}
