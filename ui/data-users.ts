import type { AuthContext } from "../src/context.ts";
import {
  BULK_USER_LIMIT,
  type BulkOutcome,
  banUsers,
  revokeSessionsOfUsers,
  unbanUsers,
} from "../src/services/bulk-user-actions.ts";
import { listUserPage, type Page, type SearchPageRequest } from "../src/services/directory.ts";
import type { EventSource } from "../src/services/security-events.ts";
import {
  listUsersByIds,
  searchUsers,
  USER_COUNT_CAP,
  USER_SORT_KEYS,
  type UserSearchPage,
  type UserSearchRequest,
  userFilterChoices,
} from "../src/services/user-search.ts";
import type { UserWire } from "../src/services/users.ts";

// The part of AdminData (ui/data.ts) about the users list: the terminal UI's listing, and what the web
// console's added: the search with filters, sorts and cursors that `authd users list` asks too, and the bulk
// actions on the users chosen, each user's event naming the acting admin (`source`). Kept here so ui/data.ts
// stays one screen of the whole.

export interface UsersAdminData {
  /** The terminal UI's users tab: newest first, the search text anywhere in email, name or username. */
  listUsers(request: SearchPageRequest): Promise<Page<UserWire>>;
  /** The users list with filters, sorts and cursors (the web console's; `authd users list` asks the same). */
  searchUsers(request: UserSearchRequest): Promise<UserSearchPage>;
  /** Ban the users chosen (at most BULK_USER_LIMIT), each with its own event; refused if it names the actor. */
  banUsers(userIds: readonly string[], reason: string, expiresInSeconds?: number): Promise<BulkOutcome>;
  unbanUsers(userIds: readonly string[]): Promise<BulkOutcome>;
  revokeSessionsOfUsers(userIds: readonly string[]): Promise<BulkOutcome & { sessions: number }>;
  /** The users with these ids that exist, in that order. */
  usersByIds(userIds: readonly string[]): Promise<UserWire[]>;
  /** The providers and roles the users list's filters offer (those stored, and the default role). */
  userFilterChoices(): Promise<{ providers: string[]; roles: string[] }>;
}

export function userDirectory(ctx: AuthContext, source: EventSource): UsersAdminData {
  return {
    listUsers: (request) => listUserPage(ctx, request),
    searchUsers: (request) => searchUsers(ctx, request),
    banUsers: (userIds, reason, expiresInSeconds) =>
      banUsers(ctx, userIds, { reason, expiresIn: expiresInSeconds }, source),
    unbanUsers: (userIds) => unbanUsers(ctx, userIds, source),
    revokeSessionsOfUsers: (userIds) => revokeSessionsOfUsers(ctx, userIds, source),
    usersByIds: (userIds) => listUsersByIds(ctx, userIds),
    userFilterChoices: () => userFilterChoices(ctx),
  };
}

export type { BulkOutcome, UserSearchPage, UserSearchRequest };
export { BULK_USER_LIMIT, USER_COUNT_CAP, USER_SORT_KEYS };
