import type { AuthContext } from "../context.ts";
import { findOrganizationByIdOrSlug } from "../db/repositories/directory.ts";
import {
  findUsersByIds,
  listStoredProviders,
  listStoredRoles,
  lowerAsDatabase,
  searchUserRows,
  type UserSearchFilters,
  type UserSearchPosition,
  type UserSearchQuery,
  type UserSortKey,
} from "../db/repositories/user-search.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { splitRoles } from "./access-control.ts";
import type { Page } from "./directory.ts";
import { toUserWire, type UserWire } from "./users.ts";

// The operators' search of the user directory (an operator view): the web console's users list and
// `authd users list` ask the same question with the same filters. A page is reached by a cursor (its
// `next` and `previous`), which stays as quick on the ten-thousandth page as on the first; an offset works
// too. The total is counted up to a cap, since counting a million matches reads a million index entries.

export type { UserSortKey };
export const USER_SORT_KEYS = ["created", "email", "name"] as const satisfies readonly UserSortKey[];
export type SortDirection = "asc" | "desc";

/** Counted exactly up to this many; beyond it a page says "more than". */
export const USER_COUNT_CAP = 10_000;

export interface UserSearchRequest {
  /**
   * The id, or the start of the email, the username or the name (ignoring case); with `match: "contains"`,
   * text anywhere in them (which reads every user: fine for thousands, slow for millions).
   */
  search?: string;
  match?: "prefix" | "contains";
  /** A ban in force (true) or none (false); unset: either. The same for the other flags. */
  banned?: boolean;
  emailVerified?: boolean;
  twoFactor?: boolean;
  passkey?: boolean;
  /** Holds an account of this provider (`credential` is a password). */
  provider?: string;
  /** Member of the organization with this id or slug. */
  organization?: string;
  /** Holds this role (one of several, or the default role by having none). */
  role?: string;
  /** Default: created. */
  sort?: UserSortKey;
  /** Default: newest first by created, A to Z by email or name. */
  direction?: SortDirection;
  /** A page's `next` or `previous`; one made for another sort starts at the first page. */
  cursor?: string;
  limit: number;
  offset?: number;
}

export interface UserSearchPage extends Page<UserWire> {
  /**
   * At least `total` match, maybe more: counting stopped at USER_COUNT_CAP, or (SQLite, several filters
   * each holding many users) after reading 5,000 of the users one filter holds.
   */
  totalCapped: boolean;
  next: string | null;
  previous: string | null;
}

interface Cursor {
  side: "after" | "before";
  position: UserSearchPosition;
}

function encodeCursor(side: Cursor["side"], sort: UserSearchQuery["sort"], row: UserRow): string {
  const value = sort.key === "created" ? row.createdAt : sort.key === "email" ? row.email : row.name;
  return `${side}.${Buffer.from(JSON.stringify([sort.key, sort.direction, value, row.id])).toString("base64url")}`;
}

/** The cursor's position if it was made for this sort; anything else (forged, stale) is no cursor. */
function decodeCursor(text: string | undefined, sort: UserSearchQuery["sort"], ctx: AuthContext): Cursor | undefined {
  const [side, payload] = (text ?? "").split(".");
  if ((side !== "after" && side !== "before") || !payload) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [key, direction, value, id] = parsed;
    if (key !== sort.key || direction !== sort.direction || typeof id !== "string") return undefined;
    if (sort.key === "created" ? !Number.isSafeInteger(value) : typeof value !== "string") return undefined;
    // The name sorts lower-cased, as the database lower-cases it.
    const position =
      sort.key === "name" ? lowerAsDatabase(ctx.database.dialect, value as string) : (value as string | number);
    return { side, position: { value: position, id } };
  } catch {
    return undefined;
  }
}

async function roleFilter(ctx: AuthContext, role: string | undefined): Promise<UserSearchFilters["roles"]> {
  const name = role?.trim();
  if (!name) return undefined;
  // Roles are stored as comma-separated lists: the few distinct lists holding this one are matched exactly.
  const stored = (await listStoredRoles(ctx.db)).filter((roles) => splitRoles(roles).includes(name));
  return { stored, orUnset: name === ctx.config.admin.defaultRole };
}

async function organizationFilter(ctx: AuthContext, idOrSlug: string | undefined): Promise<string | undefined> {
  if (!idOrSlug) return undefined;
  const organization = await findOrganizationByIdOrSlug(ctx.db, idOrSlug);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return organization.id;
}

export async function searchUsers(ctx: AuthContext, request: UserSearchRequest): Promise<UserSearchPage> {
  const key = request.sort ?? "created";
  const sort = { key, direction: request.direction ?? (key === "created" ? "desc" : "asc") } as const;
  const search = request.search?.trim();
  const match = {
    dialect: ctx.database.dialect,
    now: ctx.now(),
    search: search ? { text: search, match: request.match ?? "prefix" } : undefined,
    banned: request.banned,
    emailVerified: request.emailVerified,
    twoFactor: request.twoFactor,
    passkey: request.passkey,
    provider: request.provider || undefined,
    organizationId: await organizationFilter(ctx, request.organization),
    roles: await roleFilter(ctx, request.role),
  };
  const from = decodeCursor(request.cursor, sort, ctx);
  // One row more than the page says whether another page follows in the direction read.
  const query = { ...match, sort, from, limit: request.limit + 1, offset: from ? 0 : request.offset };
  const { rows, counted, atLeast } = await searchUserRows(ctx.db, query, USER_COUNT_CAP);
  const backwards = from?.side === "before";
  const more = rows.length > request.limit;
  const page = more ? (backwards ? rows.slice(1) : rows.slice(0, request.limit)) : rows;
  const first = page[0];
  const last = page.at(-1);
  const earlier = backwards ? more : from !== undefined || (request.offset ?? 0) > 0;
  const later = backwards ? true : more;
  return {
    items: page.map((row) => toUserWire(ctx, row)),
    total: Math.min(counted, USER_COUNT_CAP),
    totalCapped: atLeast || counted > USER_COUNT_CAP,
    next: later && last ? encodeCursor("after", sort, last) : null,
    previous: earlier && first ? encodeCursor("before", sort, first) : null,
  };
}

/** The users with these ids that exist, in the order given (the console's confirmation of a bulk action). */
export async function listUsersByIds(ctx: AuthContext, ids: readonly string[]): Promise<UserWire[]> {
  const rows = new Map((await findUsersByIds(ctx.db, ids)).map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [toUserWire(ctx, row)] : [];
  });
}

/** What the filters can choose from: the providers accounts are of, and the roles users hold. */
export async function userFilterChoices(ctx: AuthContext): Promise<{ providers: string[]; roles: string[] }> {
  const [providers, stored] = await Promise.all([listStoredProviders(ctx.db), listStoredRoles(ctx.db)]);
  const roles = new Set([ctx.config.admin.defaultRole, ...stored.flatMap((roles) => splitRoles(roles))]);
  return { providers, roles: [...roles].sort() };
}
