import type { ConsoleUserRow } from "../../../ui/web/state.ts";
import { consoleScreen } from "./frame.ts";

// The users screen (/console/users): the operator listing's search (email, name, username, id), a page at
// a time.

const PAGE_SIZE = 50;

/** A non-negative whole number from the query, else `fallback`. */
export function queryNumber(value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 0 ? Math.min(number, max) : fallback;
}

export const usersScreen = consoleScreen("users", { user: ["list"] }, async (c, _ctx, access) => {
  const search = (c.req.query("search") ?? "").trim().slice(0, 256);
  const offset = queryNumber(c.req.query("offset"), 0);
  const page = await access.data.listUsers({ search: search || undefined, limit: PAGE_SIZE, offset });
  const users: ConsoleUserRow[] = page.items.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username ?? null,
    role: user.role ?? null,
    emailVerified: user.emailVerified,
    banned: user.banned === true,
    createdAt: user.createdAt,
  }));
  return { page: "console-users", users, total: page.total, query: { search, offset, limit: PAGE_SIZE } };
});

export const USERS_HANDLERS = {
  showUsers: usersScreen.show,
};
