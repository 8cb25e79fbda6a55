import type { Get, None, PermissionCheck, Post } from "./route-shapes.ts";
import type { ListUsersQuery, Session, SessionWithUser, Status, Success, User, UserList } from "./types.ts";

// The admin routes (Better Auth's adminClient): client.admin.listUsers(...), banUser(...), … Each needs an
// administrator's session or the server token; the daemon checks, the client only names them.

export interface AdminRoutes {
  "/admin/create-user": Post<
    { email: string; password: string; name: string; role?: string | string[]; data?: Record<string, unknown> },
    { user: User }
  >;
  "/admin/list-users": Get<ListUsersQuery, UserList>;
  "/admin/update-user": Post<{ userId: string; data: Record<string, unknown> }, User>;
  "/admin/set-role": Post<{ userId: string; role: string | string[] }, { user: User }>;
  "/admin/ban-user": Post<{ userId: string; banReason?: string; banExpiresIn?: number }, { user: User }>;
  "/admin/unban-user": Post<{ userId: string }, { user: User }>;
  "/admin/impersonate-user": Post<{ userId: string }, SessionWithUser>;
  "/admin/stop-impersonating": Post<None, SessionWithUser>;
  "/admin/list-user-sessions": Post<{ userId: string }, { sessions: Session[] }>;
  "/admin/revoke-user-session": Post<{ sessionToken: string }, Success>;
  "/admin/revoke-user-sessions": Post<{ userId: string }, Success>;
  "/admin/remove-user": Post<{ userId: string }, Success>;
  "/admin/set-user-password": Post<{ userId: string; newPassword: string }, Status>;
  "/admin/has-permission": Post<
    PermissionCheck & { userId?: string; role?: string },
    { success: boolean; error: string | null }
  >;
}

export const ADMIN_METHODS = {
  "/admin/create-user": "POST",
  "/admin/list-users": "GET",
  "/admin/update-user": "POST",
  "/admin/set-role": "POST",
  "/admin/ban-user": "POST",
  "/admin/unban-user": "POST",
  "/admin/impersonate-user": "POST",
  "/admin/stop-impersonating": "POST",
  "/admin/list-user-sessions": "POST",
  "/admin/revoke-user-session": "POST",
  "/admin/revoke-user-sessions": "POST",
  "/admin/remove-user": "POST",
  "/admin/set-user-password": "POST",
  "/admin/has-permission": "POST",
} as const satisfies { [P in keyof AdminRoutes]: AdminRoutes[P]["method"] };
