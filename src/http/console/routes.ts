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
];

/** The screens with a route mounted in this deployment. */
export function offeredScreens(ctx: AuthContext): ReadonlySet<ConsoleScreen> {
  return new Set(
    CONSOLE_ROUTES.filter((route) => route.screen && route.get && (route.offered?.(ctx) ?? true)).map(
      (route) => route.screen as ConsoleScreen,
    ),
  );
}
