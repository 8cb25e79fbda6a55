import type { Context } from "hono";
import type { OverviewStatistics } from "../../../ui/data.ts";
import { CONSOLE_PATH, CONSOLE_SCREENS, type ConsoleOverviewState, type OverviewRange } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import type { PermissionRequest } from "../../services/access-control.ts";
import { type AdminActor, actorFor, decideAdminPermission, holdsAnyAdminPermission } from "../../services/admin.ts";
import { resolveSession } from "../session.ts";
import { consoleScreen, SCREEN_PERMISSIONS } from "./frame.ts";
import { offeredScreens } from "./routes.ts";

// The console's home (/console): the overview's figures, each shown to an admin who may read what it
// counts (sessions: session:list; sign-in activity: audit:list; webhook deliveries: webhook:list). The range
// of the activity is a link (?range=24h|30d), so it works without JavaScript. An admin who may not open the
// overview is sent to the first screen they may open instead of a refusal.

const OVERVIEW_PERMISSION: PermissionRequest = SCREEN_PERMISSIONS.overview;

const may = (ctx: AuthContext, actor: AdminActor, permission: PermissionRequest) =>
  decideAdminPermission(ctx, actor, permission).allowed;

function webhooksOf(statistics: OverviewStatistics): ConsoleOverviewState["webhooks"] {
  const { enabled, endpoints, failedDeliveries, failingEndpoints, pendingDeliveries } = statistics.webhooks;
  if (!enabled && endpoints === 0) return null;
  return { endpoints, failedDeliveries, failingEndpoints, pendingDeliveries };
}

export const overviewScreen = consoleScreen("overview", OVERVIEW_PERMISSION, async (c, ctx, access) => {
  const range: OverviewRange = c.req.query("range") === "30d" ? "30d" : "24h";
  const statistics = await access.data.readOverview();
  const allowed = (permission: PermissionRequest) => may(ctx, access.actor, permission);
  return {
    page: "console-overview",
    range,
    at: statistics.at,
    users: statistics.users,
    activeSessions: allowed({ session: ["list"] }) ? statistics.activeSessions : null,
    activity: allowed({ audit: ["list"] }) ? (range === "30d" ? statistics.daily : statistics.hourly) : null,
    retentionDays: statistics.retentionDays,
    webhooks: allowed({ webhook: ["list"] }) ? webhooksOf(statistics) : null,
  };
});

/** GET /console: the overview, or the first screen this admin may open when it is not theirs. */
async function showOverview(c: Context, ctx: AuthContext): Promise<Response> {
  const session = await resolveSession(c, ctx);
  if (session?.source === "cookie" && holdsAnyAdminPermission(ctx, session.user)) {
    const actor = actorFor(false, session.user);
    if (!may(ctx, actor, OVERVIEW_PERMISSION)) {
      const offered = offeredScreens(ctx);
      const first = CONSOLE_SCREENS.find(
        (screen) => screen !== "overview" && offered.has(screen) && may(ctx, actor, SCREEN_PERMISSIONS[screen]),
      );
      if (first) return c.redirect(`${CONSOLE_PATH}/${first}`, 302);
    }
  }
  return overviewScreen.show(c, ctx);
}

export const OVERVIEW_HANDLERS = { showOverview };
