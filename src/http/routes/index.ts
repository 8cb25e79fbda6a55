import type { Config } from "../../config/schema.ts";
import type { AuthContext } from "../../context.ts";
import type { Route } from "../route.ts";
import type { ROUTE_PATHS } from "./route-paths.generated.ts";

// The routes, in groups that load on their first request: a daemon that only ever answers /ok never builds
// the organization or admin routes' schemas nor loads the services behind them (idle memory, bench/README.md
// "Idle memory (issue 34, round four)"). The app mounts every enabled group's paths at start, from
// route-paths.generated.ts (what each group's module holds, written by `npm run route-errors`; a test keeps
// it current), so routing, 404s and the order of matching do not depend on what has loaded. Groups are listed
// in mounting order.

export interface RouteGroup {
  /** The group's key in ROUTE_PATHS. */
  name: keyof typeof ROUTE_PATHS;
  /** Whether the configuration mounts the group. */
  enabled(config: Config): boolean;
  /** The group's routes (its modules load on the first call). */
  load(): Promise<readonly Route[]>;
}

const always = () => true;

export const ROUTE_GROUPS: readonly RouteGroup[] = [
  {
    name: "health",
    enabled: always,
    load: async () => [...(await import("./misc.ts")).miscRoutes, (await import("./ready.ts")).ready],
  },
  { name: "session", enabled: always, load: async () => (await import("./session.ts")).sessionRoutes },
  {
    name: "email-password",
    enabled: always,
    load: async () => [(await import("./sign-up.ts")).signUpEmail, (await import("./sign-in.ts")).signInEmail],
  },
  { name: "user", enabled: always, load: async () => [(await import("./user.ts")).updateUserRoute] },
  { name: "api-key", enabled: (c) => c.apiKey.enabled, load: async () => (await import("./api-key.ts")).apiKeyRoutes },
  {
    name: "social",
    enabled: always,
    load: async () => {
      const [social, callback] = await Promise.all([import("./social.ts"), import("./social-callback.ts")]);
      return [social.signInSocial, callback.callbackGet, callback.callbackPost, social.linkSocial];
    },
  },
  {
    name: "provider-tokens",
    enabled: always,
    load: async () => (await import("./provider-tokens.ts")).providerTokenRoutes,
  },
  {
    name: "username",
    enabled: (c) => c.username.enabled,
    load: async () => [(await import("./username.ts")).signInUsername],
  },
  {
    name: "organization",
    enabled: (c) => c.organization.enabled,
    load: async () => {
      const [core, members, invitations] = await Promise.all([
        import("./organization/organizations.ts"),
        import("./organization/members.ts"),
        import("./organization/invitations.ts"),
      ]);
      return [...core.organizationCoreRoutes, ...members.memberRoutes, ...invitations.invitationRoutes];
    },
  },
  {
    name: "organization-teams",
    enabled: (c) => c.organization.enabled && c.organization.teams.enabled,
    load: async () => (await import("./organization/teams.ts")).teamRoutes,
  },
  { name: "admin", enabled: (c) => c.admin.enabled, load: async () => (await import("./admin/index.ts")).adminRoutes },
  {
    name: "email-verification",
    enabled: always,
    load: async () => (await import("./email-verification.ts")).emailVerificationRoutes,
  },
  { name: "password", enabled: always, load: async () => (await import("./password.ts")).passwordRoutes },
  { name: "change-email", enabled: always, load: async () => [(await import("./change-email.ts")).changeEmailRoute] },
  { name: "accounts", enabled: always, load: async () => (await import("./accounts.ts")).accountRoutes },
  {
    name: "magic-link",
    enabled: (c) => c.magicLink.enabled,
    load: async () => (await import("./magic-link.ts")).magicLinkRoutes,
  },
  {
    name: "email-otp",
    enabled: (c) => c.emailOTP.enabled,
    load: async () => (await import("./email-otp.ts")).emailOtpRoutes,
  },
  {
    name: "delete-user",
    enabled: (c) => c.deleteUser.enabled,
    load: async () => (await import("./delete-user.ts")).deleteUserRoutes,
  },
  {
    name: "passkey",
    enabled: (c) => c.passkey.enabled,
    load: async () => [
      ...(await import("./passkey.ts")).passkeyCeremonyRoutes,
      ...(await import("./passkey-management.ts")).passkeyManagementRoutes,
    ],
  },
  {
    name: "admin-passkeys",
    enabled: (c) => c.passkey.enabled && c.admin.enabled,
    load: async () => (await import("./admin/passkeys.ts")).adminPasskeyRoutes,
  },
  { name: "jwt", enabled: (c) => c.jwt.enabled, load: async () => (await import("./jwt.ts")).jwtRoutes },
  {
    name: "forward-auth",
    enabled: (c) => c.forwardAuth.enabled,
    load: async () => [(await import("./forward-auth.ts")).forwardAuthRoute],
  },
  {
    name: "two-factor",
    enabled: (c) => c.twoFactor.enabled,
    load: async () => (await import("./two-factor.ts")).twoFactorRoutes,
  },
  {
    name: "admin-two-factor",
    enabled: (c) => c.twoFactor.enabled && c.admin.enabled,
    load: async () => [(await import("./admin/two-factor.ts")).adminResetTwoFactor],
  },
  { name: "audit", enabled: always, load: async () => (await import("./audit.ts")).auditRoutes },
  {
    name: "admin-webhooks",
    enabled: (c) => c.admin.enabled,
    load: async () => (await import("./admin/webhooks.ts")).adminWebhookRoutes,
  },
  {
    // ID tokens are verified against /jwks, whether or not the session JWTs are on.
    name: "oidc-jwks",
    enabled: (c) => c.oidcProvider.enabled && !c.jwt.enabled,
    load: async () => [(await import("./jwt.ts")).jwksRoute],
  },
  {
    name: "oidc-provider",
    enabled: (c) => c.oidcProvider.enabled,
    load: async () => (await import("./oidc-provider.ts")).oidcProviderRoutes,
  },
  {
    name: "admin-oauth-clients",
    enabled: (c) => c.oidcProvider.enabled && c.admin.enabled,
    load: async () => (await import("./admin/oauth-clients.ts")).adminOAuthClientRoutes,
  },
];

/** "METHOD /path", the key of a route in ROUTE_PATHS (and in the error map). */
export function routeKey(route: Pick<Route, "method" | "path">): string {
  return `${route.method} ${route.path}`;
}

/** The groups the configuration mounts, in mounting order. */
export function enabledGroups(ctx: AuthContext): RouteGroup[] {
  return ROUTE_GROUPS.filter((group) => group.enabled(ctx.config));
}

/** Whether a route's path is mounted (AUTH_DISABLED_PATHS takes single routes out). */
export function isPathEnabled(ctx: AuthContext, path: string): boolean {
  return !ctx.config.disabledPaths.includes(path);
}

/** Every route the configuration enables, loaded: the OpenAPI document lists exactly the routes the app mounts. */
export async function loadEnabledRoutes(ctx: AuthContext): Promise<Route[]> {
  const groups = await Promise.all(enabledGroups(ctx).map((group) => group.load()));
  return groups.flat().filter((route) => isPathEnabled(ctx, route.path));
}
