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
  { path: "", get: "showOverview", permission: { user: ["list"] }, screen: "overview" },
  { path: "/audit", get: "showAudit", permission: { audit: ["list"] }, screen: "audit" },
  // Before /audit/:id, which would take "export" for an event's id.
  { path: "/audit/export", get: "exportAudit", permission: { audit: ["export"] } },
  { path: "/audit/:id", get: "showAuditEvent", permission: { audit: ["list"] } },
  // A user's screen and its forms (user-page.ts, user-actions.ts, impersonation-page.ts).
  { path: "/users/:id", get: "showUser", permission: { user: ["get"] } },
  {
    path: "/users/:id/verify-email",
    post: "verifyUserEmail",
    permission: { user: ["update"] },
    limitAs: "/admin/update-user",
  },
  {
    path: "/users/:id/send-password-reset",
    post: "sendUserPasswordReset",
    permission: { user: ["set-password"] },
    limitAs: "/request-password-reset",
    offered: (ctx) => ctx.config.emailAndPassword.enabled,
  },
  {
    path: "/users/:id/set-password",
    post: "setUserPassword",
    permission: { user: ["set-password"] },
    limitAs: "/admin/set-user-password",
    offered: (ctx) => ctx.config.emailAndPassword.enabled,
  },
  { path: "/users/:id/set-role", post: "setUserRole", permission: { user: ["set-role"] }, limitAs: "/admin/set-role" },
  { path: "/users/:id/ban", post: "banUser", permission: { user: ["ban"] }, limitAs: "/admin/ban-user" },
  { path: "/users/:id/unban", post: "unbanUser", permission: { user: ["ban"] }, limitAs: "/admin/unban-user" },
  {
    path: "/users/:id/reset-second-factor",
    post: "resetUserSecondFactor",
    permission: { user: ["reset-two-factor"] },
    limitAs: "/admin/reset-two-factor",
    offered: (ctx) => ctx.config.twoFactor.enabled,
  },
  {
    path: "/users/:id/remove-passkey",
    post: "removeUserPasskey",
    permission: { user: ["set-password"] },
    limitAs: "/admin/remove-user-passkey",
    offered: (ctx) => ctx.config.passkey.enabled,
  },
  {
    path: "/users/:id/revoke-session",
    post: "revokeUserSession",
    permission: { session: ["revoke"] },
    limitAs: "/admin/revoke-user-session",
  },
  {
    path: "/users/:id/revoke-sessions",
    post: "revokeUserSessions",
    permission: { session: ["revoke"] },
    limitAs: "/admin/revoke-user-sessions",
  },
  {
    path: "/users/:id/issue-api-key",
    post: "issueUserApiKey",
    permission: { apiKey: ["create"] },
    limitAs: "/api-key/create",
    offered: (ctx) => ctx.config.apiKey.enabled,
  },
  {
    path: "/users/:id/update-api-key",
    post: "updateUserApiKey",
    permission: { apiKey: ["update"] },
    limitAs: "/api-key/update",
    offered: (ctx) => ctx.config.apiKey.enabled,
  },
  {
    path: "/users/:id/revoke-api-key",
    post: "revokeUserApiKey",
    permission: { apiKey: ["revoke"] },
    limitAs: "/api-key/delete",
    offered: (ctx) => ctx.config.apiKey.enabled,
  },
  { path: "/users/:id/delete", post: "deleteUser", permission: { user: ["delete"] }, limitAs: "/admin/remove-user" },
  {
    path: "/users/:id/impersonate",
    post: "impersonateUser",
    permission: { user: ["impersonate"] },
    limitAs: "/admin/impersonate-user",
  },
  // Posted from the banner in the impersonated user's session: no admin session to ask the permission of;
  // what it checks is the API's stop-impersonating's (the parked session is the impersonating admin's).
  {
    path: "/stop-impersonating",
    post: "stopImpersonating",
    permission: { user: ["impersonate"] },
    limitAs: "/admin/stop-impersonating",
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
