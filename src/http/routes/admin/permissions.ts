import * as z from "zod";
import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors.ts";
import { type AdminActor, decideAdminPermission } from "../../../services/admin.ts";
import { findUserById } from "../../../services/users.ts";
import { permissionMap, singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";

const Permissions = permissionMap();

/**
 * Whose permissions to check: the signed-in user; for the server, the named user or role (or the server
 * itself, which holds everything); for anyone else, only a role name, which reveals nothing about users.
 */
async function subjectFor(
  ctx: AuthContext,
  input: { isServer: boolean; sessionUser?: { id: string; role: string | null }; userId?: string; role?: string },
): Promise<AdminActor> {
  if (input.sessionUser) return { kind: "user", userId: input.sessionUser.id, role: input.sessionUser.role };
  if (input.isServer && input.userId) {
    const user = await findUserById(ctx, input.userId);
    if (!user) throw new AuthError("USER_NOT_FOUND");
    return { kind: "user", userId: user.id, role: user.role };
  }
  if (input.role) return { kind: "user", userId: "", role: input.role };
  if (input.isServer) return { kind: "server" };
  throw new AuthError("UNAUTHORIZED");
}

export const adminHasPermission = defineRoute({
  method: "POST",
  path: "/admin/has-permission",
  summary: "Check whether a user or role holds admin permissions",
  description: "permissions maps a resource (user, session) to the actions asked for; every action must be held.",
  tags: ["Admin"],
  auth: "optional-session",
  body: z.object({
    userId: singleLine().optional(),
    role: singleLine().optional(),
    permission: Permissions.optional(),
    permissions: Permissions.optional(),
  }),
  response: z.object({ error: z.null(), success: z.boolean() }),
  handler: async ({ ctx, body, session, isServer }) => {
    const request = body.permissions ?? body.permission;
    if (!request || Object.keys(request).length === 0) throw new AuthError("VALIDATION_ERROR");
    const subject = await subjectFor(ctx, {
      isServer,
      sessionUser: session?.user,
      userId: body.userId,
      role: body.role,
    });
    return { error: null, success: decideAdminPermission(ctx, subject, request).allowed };
  },
});
