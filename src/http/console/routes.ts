import type { ConsoleScreen } from "../../../ui/web/console-state.ts";
import type { AuthContext } from "../../context.ts";
import type { PermissionRequest } from "../../services/access-control.ts";

// The console's routes: each names the handler that answers it, the admin permission it needs and, for a
// form, the API route whose rate limit it shares. Each area of the console appends its routes.

export interface ConsoleRoute {
  /** Under /console; "" is the console's home. */
  path: string;
  /** A handler of CONSOLE_HANDLERS (handlers.ts) by name; test/unit/console-routes.test.ts checks each exists. */
  get?: string;
  post?: string;
  /** What the route needs; the handler asks for it again (frame.ts), this table documents and tests it. */
  permission: PermissionRequest;
  /** The API path whose rate-limit rule and counter a form post shares. */
  limitAs?: string;
  /** The navigation entry this route draws, when it is one's own screen. */
  screen?: ConsoleScreen;
  /** Mounted only when this says the deployment offers it (a feature that is off). */
  offered?: (ctx: AuthContext) => boolean;
}

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { path: "/users", get: "showUsers", permission: { user: ["list"] }, screen: "users" },
  // The users list's bulk actions: GET confirms (nothing changes), POST acts on the users chosen.
  {
    path: "/users-bulk/ban",
    get: "confirmBanUsers",
    post: "banUsers",
    permission: { user: ["ban"] },
    limitAs: "/admin/ban-user",
  },
  {
    path: "/users-bulk/unban",
    get: "confirmUnbanUsers",
    post: "unbanUsers",
    permission: { user: ["ban"] },
    limitAs: "/admin/unban-user",
  },
  {
    path: "/users-bulk/revoke-sessions",
    get: "confirmRevokeUsersSessions",
    post: "revokeUsersSessions",
    permission: { session: ["revoke"] },
    limitAs: "/admin/revoke-user-sessions",
  },
];

/** The screens with a route mounted in this deployment. */
export function offeredScreens(ctx: AuthContext): ReadonlySet<ConsoleScreen> {
  return new Set(
    CONSOLE_ROUTES.filter((route) => route.screen && route.get && (route.offered?.(ctx) ?? true)).map(
      (route) => route.screen as ConsoleScreen,
    ),
  );
}
