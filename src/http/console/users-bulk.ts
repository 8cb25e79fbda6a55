import type { Context } from "hono";
import { type AdminData, BULK_USER_LIMIT } from "../../../ui/data.ts";
import {
  BAN_LENGTHS,
  type BulkUserAction,
  consoleHref,
  readUsersQuery,
  usersQueryParams,
} from "../../../ui/web/state.ts";
import type { PermissionRequest } from "../../services/access-control.ts";
import type { FormFields } from "../pages/guard.ts";
import { seeOther } from "../pages/respond.ts";
import { consoleAction, consoleScreen } from "./frame.ts";
import { toConsoleUserRow } from "./users-page.ts";

// Bulk actions on the users list (/console/users-bulk/<action>): the list's checkboxes send the users chosen
// to a confirmation (GET: nothing changes, so it needs no token) showing who they are; its form (POST, the
// pages' guard) acts on them in one service call. Each user gets the single action's change and audit
// event, naming the admin. The list's query rides along (`back`), rebuilt from what it parses to, so the
// admin returns to the same page of the same search and nothing else can be smuggled into the redirect.

interface BulkAction {
  permission: PermissionRequest;
  notice: string;
  act(data: AdminData, userIds: string[], fields: FormFields): Promise<unknown>;
}

const ACTIONS: Record<BulkUserAction, BulkAction> = {
  ban: {
    permission: { user: ["ban"] },
    notice: "console.users.notice.banned",
    act: (data, userIds, fields) => {
      const length = BAN_LENGTHS.find((each) => each === (fields.expiresIn ?? ""));
      return data.banUsers(userIds, (fields.reason ?? "").trim().slice(0, 256), length ? Number(length) : undefined);
    },
  },
  unban: {
    permission: { user: ["ban"] },
    notice: "console.users.notice.unbanned",
    act: (data, userIds) => data.unbanUsers(userIds),
  },
  "revoke-sessions": {
    permission: { session: ["revoke"] },
    notice: "console.users.notice.signedOut",
    act: (data, userIds) => data.revokeSessionsOfUsers(userIds),
  },
};

/** The confirmation's form names the users user-0, user-1, … (a form field holds one value). */
export const chosenField = (index: number) => `user-${index}`;

/** The users chosen: the list's checkboxes (GET, `user` repeated) or the confirmation's fields (POST). */
async function chosenUserIds(c: Context): Promise<string[]> {
  const raw =
    c.req.method === "GET"
      ? (c.req.queries("user") ?? [])
      : Object.entries((await c.req.parseBody()) as Record<string, unknown>)
          .filter(([name, value]) => /^user-\d{1,3}$/.test(name) && typeof value === "string")
          .map(([, value]) => value as string);
  const ids = [...new Set(raw.map((id) => id.trim()).filter((id) => id.length > 0 && id.length <= 256))];
  // The confirmation shows at most as many as one action takes; a post of more is refused whole (service).
  return c.req.method === "GET" ? ids.slice(0, BULK_USER_LIMIT) : ids;
}

/** The list's query string from `back`, as it parses (anything else dropped). */
export function listQueryString(back: string | undefined): string {
  const params = new URLSearchParams(back ?? "");
  return new URLSearchParams(usersQueryParams(readUsersQuery((name) => params.get(name) ?? undefined))).toString();
}

async function backOf(c: Context): Promise<string | undefined> {
  if (c.req.method === "GET") return c.req.query("back");
  const back = ((await c.req.parseBody()) as Record<string, unknown>).back;
  return typeof back === "string" ? back : undefined;
}

function confirmation(action: BulkUserAction) {
  return consoleScreen("users", ACTIONS[action].permission, async (c, _ctx, access) => {
    const ids = await chosenUserIds(c);
    const users = (await access.data.usersByIds(ids)).map(toConsoleUserRow);
    const back = listQueryString(await backOf(c));
    return { page: "console-users-confirm" as const, action, users, missing: ids.length - users.length, back };
  });
}

function bulkHandlers(action: BulkUserAction) {
  const screen = confirmation(action);
  const { permission, notice, act } = ACTIONS[action];
  const post = consoleAction(permission, screen.draw, async (c, _ctx, access, fields) => {
    await act(access.data, await chosenUserIds(c), fields);
    const params = Object.fromEntries(new URLSearchParams(listQueryString(fields.back)));
    return seeOther(c, consoleHref("/users", { ...params, notice }));
  });
  return { show: screen.show, post };
}

const ban = bulkHandlers("ban");
const unban = bulkHandlers("unban");
const revoke = bulkHandlers("revoke-sessions");

export const BULK_HANDLERS = {
  confirmBanUsers: ban.show,
  banUsers: ban.post,
  confirmUnbanUsers: unban.show,
  unbanUsers: unban.post,
  confirmRevokeUsersSessions: revoke.show,
  revokeUsersSessions: revoke.post,
};
