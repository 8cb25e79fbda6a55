import type { Context } from "hono";
import type { ActivityEntry } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { listUserSecurityEvents } from "../../services/audit-log.ts";
import type { AuditEventWire } from "../../wire/audit.ts";
import { showAccountSection } from "./account-forms.ts";
import { accountState } from "./account-frame.ts";
import { renderPage } from "./respond.ts";

// The account page's security activity ({pages}/activity): the user's own security events, newest first,
// as GET /list-security-events answers them (the same service), a page of PAGE_SIZE at a time (?page=2…).
// The page draws each event in words; it shows what the event says of the request (address, browser) and
// whether the user did it or an operator, never the event's details (ids, fields).

const PAGE_SIZE = 20;
/** Pages past this are not drawn (the API pages by offset; a link this deep is not a person's). */
const LAST_PAGE = 10_000;

const OPERATORS: ReadonlySet<AuditEventWire["actor"]["type"]> = new Set(["admin", "server", "cli"]);

const entryOf = (event: AuditEventWire): ActivityEntry => ({
  id: event.id,
  type: event.type,
  outcome: event.outcome,
  createdAt: event.createdAt,
  ip: event.ip,
  userAgent: event.userAgent,
  byOperator: OPERATORS.has(event.actor.type),
});

function pageNumber(c: Context): number {
  const asked = Number(c.req.query("page") ?? "1");
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked, LAST_PAGE) : 1;
}

export const showActivity = (c: Context, ctx: AuthContext) =>
  showAccountSection(c, ctx, "activity", async (session) => {
    const offset = (pageNumber(c) - 1) * PAGE_SIZE;
    const listed = await listUserSecurityEvents(ctx, session.user.id, { limit: PAGE_SIZE, offset });
    const state = {
      ...accountState(c, ctx, session),
      page: "account-activity" as const,
      events: listed.items.map(entryOf),
      offset,
      limit: PAGE_SIZE,
      total: listed.total,
    };
    return renderPage(c, ctx, state);
  });
