import type { AuthContext } from "../../context.ts";
import type { Route } from "../route.ts";
import { accountRoutes } from "./accounts.ts";
import { adminRoutes } from "./admin/index.ts";
import { apiKeyRoutes } from "./api-key.ts";
import { auditRoutes } from "./audit.ts";
import { changeEmailRoute } from "./change-email.ts";
import { deleteUserRoutes } from "./delete-user.ts";
import { emailVerificationRoutes } from "./email-verification.ts";
import { miscRoutes } from "./misc.ts";
import { organizationRoutes } from "./organization/index.ts";
import { passwordRoutes } from "./password.ts";
import { providerTokenRoutes } from "./provider-tokens.ts";
import { ready } from "./ready.ts";
import { sessionRoutes } from "./session.ts";
import { signInEmail } from "./sign-in.ts";
import { signUpEmail } from "./sign-up.ts";
import { linkSocial, signInSocial } from "./social.ts";
import { callbackGet, callbackPost } from "./social-callback.ts";
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
  if (ctx.config.deleteUser.enabled) routes.push(...deleteUserRoutes);
  routes.push(...auditRoutes);
  return routes.filter((route) => !ctx.config.disabledPaths.includes(route.path));
}
