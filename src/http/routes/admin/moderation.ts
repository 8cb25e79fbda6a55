import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission, banUser, unbanUser } from "../../../services/admin.ts";
import { listUserSessions, revokeSession, revokeUserSessions, toSessionWire } from "../../../services/sessions.ts";
import { toUserWire } from "../../../services/users.ts";
import { defineRoute } from "../../route.ts";
import { SessionSchema, SuccessSchema, UserSchema } from "../schemas.ts";

// Admin routes over bans and other users' sessions.

const UserIdBody = z.object({ userId: z.string().min(1) });

export const adminBanUser = defineRoute({
  method: "POST",
  path: "/admin/ban-user",
  summary: "Ban a user and revoke all their sessions (admin)",
  description: "banExpiresIn is in seconds; without it the ban lasts until unban-user.",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ userId: z.string().min(1), banReason: z.string().optional(), banExpiresIn: z.number().positive().optional() }),
  response: z.object({ user: UserSchema }),
  handler: async ({ ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["ban"] });
    if (actor.kind === "user" && actor.userId === body.userId) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
    const user = await banUser(ctx, body.userId, { reason: body.banReason, expiresIn: body.banExpiresIn });
    return { user: toUserWire(ctx, user) };
  },
});

export const adminUnbanUser = defineRoute({
  method: "POST",
  path: "/admin/unban-user",
  summary: "Lift a user's ban (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: UserIdBody,
  response: z.object({ user: UserSchema }),
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["ban"] });
    return { user: toUserWire(ctx, await unbanUser(ctx, body.userId)) };
  },
});

export const adminListUserSessions = defineRoute({
  method: "POST",
  path: "/admin/list-user-sessions",
  summary: "List a user's live sessions (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: UserIdBody,
  response: z.object({ sessions: z.array(SessionSchema) }),
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { session: ["list"] });
    const now = ctx.now();
    const sessions = await listUserSessions(ctx, body.userId);
    return { sessions: sessions.filter((s) => Number(s.expiresAt) > now).map((s) => toSessionWire(ctx, s)) };
  },
});

export const adminRevokeUserSession = defineRoute({
  method: "POST",
  path: "/admin/revoke-user-session",
  summary: "Revoke one session by its token (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ sessionToken: z.string().min(1) }),
  response: SuccessSchema,
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { session: ["revoke"] });
    await revokeSession(ctx, body.sessionToken);
    return { success: true };
  },
});

export const adminRevokeUserSessions = defineRoute({
  method: "POST",
  path: "/admin/revoke-user-sessions",
  summary: "Revoke every session of a user (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: UserIdBody,
  response: SuccessSchema,
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { session: ["revoke"] });
    await revokeUserSessions(ctx, body.userId);
    return { success: true };
  },
});
