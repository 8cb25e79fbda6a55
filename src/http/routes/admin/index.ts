import type { Route } from "../../route.ts";
import { adminImpersonateUser, adminStopImpersonating } from "./impersonation.ts";
import {
  adminBanUser,
  adminListUserSessions,
  adminRevokeUserSession,
  adminRevokeUserSessions,
  adminUnbanUser,
} from "./moderation.ts";
import { adminHasPermission } from "./permissions.ts";
import { adminCreateUser, adminListUsers, adminRemoveUser, adminSetRole, adminSetUserPassword } from "./users.ts";

/** Every /admin route; mounted when the admin capability is enabled. */
export const adminRoutes: Route[] = [
  adminCreateUser,
  adminListUsers,
  adminSetRole,
  adminBanUser,
  adminUnbanUser,
  adminListUserSessions,
  adminRevokeUserSession,
  adminRevokeUserSessions,
  adminImpersonateUser,
  adminStopImpersonating,
  adminRemoveUser,
  adminSetUserPassword,
  adminHasPermission,
];
