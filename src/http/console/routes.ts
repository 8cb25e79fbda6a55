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
  /** A GET that reads much (an export download) counts against this API path's rate limit too. */
  getLimitAs?: string;
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
  { path: "/audit/export", get: "exportAudit", permission: { audit: ["export"] }, getLimitAs: "/admin/audit-log" },
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
  // Organizations (organizations-page.ts, organization-actions.ts): an operator's changes are the members' own.
  ...organizationRoutes([
    {
      path: "/organizations",
      get: "showOrganizations",
      permission: { organization: ["list"] },
      screen: "organizations",
    },
    { path: "/organizations/:id", get: "showOrganization", permission: { organization: ["get"] } },
    {
      path: "/organizations/:id/member-role",
      post: "changeOrganizationMemberRole",
      permission: { organization: ["update"] },
      limitAs: "/organization/update-member-role",
    },
    {
      path: "/organizations/:id/remove-member",
      post: "removeOrganizationMember",
      permission: { organization: ["update"] },
      limitAs: "/organization/remove-member",
    },
    {
      path: "/organizations/:id/resend-invitation",
      post: "resendOrganizationInvitation",
      permission: { organization: ["update"] },
      limitAs: "/organization/invite-member",
    },
    {
      path: "/organizations/:id/cancel-invitation",
      post: "cancelOrganizationInvitation",
      permission: { organization: ["update"] },
      limitAs: "/organization/cancel-invitation",
    },
  ]),
  // Every user's API keys (api-keys-page.ts).
  {
    path: "/api-keys",
    get: "showApiKeys",
    permission: { apiKey: ["list"] },
    screen: "api-keys",
    offered: (ctx) => ctx.config.apiKey.enabled,
  },
  {
    path: "/api-keys/revoke",
    post: "revokeListedApiKey",
    permission: { apiKey: ["revoke"] },
    limitAs: "/api-key/delete",
    offered: (ctx) => ctx.config.apiKey.enabled,
  },
  // The OpenID Provider's clients (clients-page.ts, client-actions.ts), while the provider is on.
  ...clientRoutes([
    { path: "/clients", get: "showOAuthClients", permission: { oauthClient: ["list"] }, screen: "clients" },
    {
      path: "/clients/create",
      post: "createOAuthClient",
      permission: { oauthClient: ["manage"] },
      limitAs: "/admin/oauth-clients",
    },
    { path: "/clients/:id", get: "showOAuthClient", permission: { oauthClient: ["list"] } },
    {
      path: "/clients/:id/update",
      post: "updateOAuthClient",
      permission: { oauthClient: ["manage"] },
      limitAs: "/admin/oauth-clients/:clientId",
    },
    {
      path: "/clients/:id/rotate-secret",
      post: "rotateOAuthClientSecret",
      permission: { oauthClient: ["manage"] },
      limitAs: "/admin/oauth-clients/:clientId/rotate-secret",
    },
    {
      path: "/clients/:id/delete",
      post: "deleteOAuthClient",
      permission: { oauthClient: ["manage"] },
      limitAs: "/admin/oauth-clients/:clientId/delete",
    },
  ]),
  // Webhooks (docs/console.md#webhooks): each form shares the rate limit of its admin API route.
  { path: "/webhooks", get: "showWebhooks", permission: { webhook: ["list"] }, screen: "webhooks" },
  {
    path: "/webhooks/create",
    post: "createWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/create",
  },
  { path: "/webhooks/:id", get: "showWebhook", permission: { webhook: ["list"] } },
  {
    path: "/webhooks/:id/update",
    post: "updateWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/update",
  },
  {
    path: "/webhooks/:id/disable",
    post: "disableWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/disable",
  },
  {
    path: "/webhooks/:id/enable",
    post: "enableWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/enable",
  },
  {
    path: "/webhooks/:id/rotate-secret",
    post: "rotateWebhookSecret",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/rotate-secret",
  },
  {
    path: "/webhooks/:id/test",
    post: "testWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/test",
  },
  {
    path: "/webhooks/:id/remove",
    post: "removeWebhook",
    permission: { webhook: ["manage"] },
    limitAs: "/admin/webhooks/remove",
  },
  {
    path: "/webhooks/:id/resend",
    post: "resendWebhookDelivery",
    permission: { webhook: ["resend"] },
    limitAs: "/admin/webhooks/resend",
  },
  // Settings: read-only.
  { path: "/settings", get: "showSettings", permission: { settings: ["read"] }, screen: "settings" },
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
  // Mail previews (mail-page.ts): read-only, for whoever may read the settings; the HTML part in a frame.
  { path: "/mail", get: "showMailPreview", permission: { settings: ["read"] }, screen: "mail" },
  { path: "/mail/html", get: "showMailPreviewHtml", permission: { settings: ["read"] } },
];

/** The screens with a route mounted in this deployment. */
export function offeredScreens(ctx: AuthContext): ReadonlySet<ConsoleScreen> {
  return new Set(
    CONSOLE_ROUTES.filter((route) => route.screen && route.get && (route.offered?.(ctx) ?? true)).map(
      (route) => route.screen as ConsoleScreen,
    ),
  );
}

/** Routes offered only while organizations are on. */
function organizationRoutes(routes: ConsoleRoute[]): ConsoleRoute[] {
  return routes.map((route) => ({ ...route, offered: (ctx) => ctx.config.organization.enabled }));
}

/** Routes offered only while the OpenID Provider is on. */
function clientRoutes(routes: ConsoleRoute[]): ConsoleRoute[] {
  return routes.map((route) => ({ ...route, offered: (ctx) => ctx.config.oidcProvider.enabled }));
}
