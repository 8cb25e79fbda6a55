import type { AuthContext } from "../../context.ts";
import type { RateLimits, Route } from "../route.ts";
import { accountRoutes } from "./accounts.ts";
import { adminRoutes } from "./admin/index.ts";
import { adminOAuthClientRoutes } from "./admin/oauth-clients.ts";
import { adminPasskeyRoutes } from "./admin/passkeys.ts";
import { adminResetTwoFactor } from "./admin/two-factor.ts";
import { adminWebhookRoutes } from "./admin/webhooks.ts";
import { apiKeyRoutes } from "./api-key.ts";
import { auditRoutes } from "./audit.ts";
import { changeEmailRoute } from "./change-email.ts";
import { deleteUserRoutes } from "./delete-user.ts";
import { emailOtpRateLimits, emailOtpRoutes } from "./email-otp.ts";
import { emailVerificationRoutes } from "./email-verification.ts";
import { forwardAuthRateLimits, forwardAuthRoute } from "./forward-auth.ts";
import { jwksRoute, jwtRoutes } from "./jwt.ts";
import { magicLinkRateLimits, magicLinkRoutes } from "./magic-link.ts";
import { miscRoutes } from "./misc.ts";
import { oidcProviderRoutes } from "./oidc-provider.ts";
import { organizationRoutes } from "./organization/index.ts";
import { passkeyCeremonyRoutes, passkeyRateLimits } from "./passkey.ts";
import { passkeyManagementRoutes } from "./passkey-management.ts";
import { passwordRoutes } from "./password.ts";
import { providerTokenRoutes } from "./provider-tokens.ts";
import { ready } from "./ready.ts";
import { sessionRoutes } from "./session.ts";
import { signInEmail } from "./sign-in.ts";
import { signUpEmail } from "./sign-up.ts";
import { linkSocial, signInSocial } from "./social.ts";
import { callbackGet, callbackPost } from "./social-callback.ts";
import { twoFactorRateLimits, twoFactorRoutes } from "./two-factor.ts";
import { updateUserRoute } from "./user.ts";
import { signInUsername } from "./username.ts";

/** Every route the configuration enables. The app mounts exactly these, and the OpenAPI document lists exactly these. */
export function enabledRoutes(ctx: AuthContext): Route[] {
  const routes: Route[] = [...miscRoutes, ready, ...sessionRoutes, signUpEmail, signInEmail, updateUserRoute];
  if (ctx.config.apiKey.enabled) routes.push(...apiKeyRoutes);
  routes.push(signInSocial, callbackGet, callbackPost, linkSocial, ...providerTokenRoutes);
  if (ctx.config.username.enabled) routes.push(signInUsername);
  routes.push(...organizationRoutes(ctx));
  if (ctx.config.admin.enabled) routes.push(...adminRoutes);
  routes.push(...emailVerificationRoutes, ...passwordRoutes, changeEmailRoute, ...accountRoutes);
  if (ctx.config.magicLink.enabled) routes.push(...magicLinkRoutes);
  if (ctx.config.emailOTP.enabled) routes.push(...emailOtpRoutes);
  if (ctx.config.deleteUser.enabled) routes.push(...deleteUserRoutes);
  if (ctx.config.passkey.enabled) routes.push(...passkeyCeremonyRoutes, ...passkeyManagementRoutes);
  if (ctx.config.passkey.enabled && ctx.config.admin.enabled) routes.push(...adminPasskeyRoutes);
  if (ctx.config.jwt.enabled) routes.push(...jwtRoutes);
  if (ctx.config.forwardAuth.enabled) routes.push(forwardAuthRoute);
  if (ctx.config.twoFactor.enabled) routes.push(...twoFactorRoutes);
  if (ctx.config.twoFactor.enabled && ctx.config.admin.enabled) routes.push(adminResetTwoFactor);
  routes.push(...auditRoutes);
  if (ctx.config.admin.enabled) routes.push(...adminWebhookRoutes);
  if (ctx.config.oidcProvider.enabled) {
    // ID tokens are verified against /jwks, whether or not the session JWTs are on.
    if (!ctx.config.jwt.enabled) routes.push(jwksRoute);
    routes.push(...oidcProviderRoutes);
  }
  if (ctx.config.oidcProvider.enabled && ctx.config.admin.enabled) routes.push(...adminOAuthClientRoutes);
  return routes.filter((route) => !ctx.config.disabledPaths.includes(route.path));
}

// The built-in rate-limit rules beside the general one (rateLimit.window / rateLimit.max), first match wins.
// Each optional feature declares its own beside its routes (`<feature>RateLimits` in its route file); the
// core's are here: Better Auth's tight window on the paths that take a password, a code or create an
// account. A path ending in `*` is a prefix. docs/operations.md lists them (a test keeps the two in step);
// rateLimit.customRules replaces any of them.

const CORE: RateLimits = {
  limited: [
    { path: "/sign-in*", window: 10, max: 3 },
    { path: "/sign-up*", window: 10, max: 3 },
    { path: "/change-password*", window: 10, max: 3 },
    { path: "/change-email*", window: 10, max: 3 },
  ],
  // Readiness probes must not depend on (or fill) the counter store they partly check.
  unlimited: ["/ready"],
};

// The features' exact paths come before the core's prefixes: /sign-in* would catch /sign-in/magic-link.
const ALL: RateLimits[] = [
  magicLinkRateLimits,
  emailOtpRateLimits,
  passkeyRateLimits,
  CORE,
  twoFactorRateLimits,
  forwardAuthRateLimits,
];

export const BUILT_IN_RULES = ALL.flatMap((rules) => rules.limited ?? []);

/** Paths no built-in rule counts (a custom rule still may). */
export const UNLIMITED_PATHS: readonly string[] = ALL.flatMap((rules) => rules.unlimited ?? []);
