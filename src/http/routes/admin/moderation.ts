import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission, banUser, revokeSessionsOf, unbanUser } from "../../../services/admin.ts";
import { listUserSessions, toListedSessionWire } from "../../../services/sessions/sessions.ts";
import { toUserWire } from "../../../services/users.ts";
import { SuccessSchema } from "../../../wire/common.ts";
import { SessionSchema } from "../../../wire/session.ts";
import { UserSchema } from "../../../wire/user.ts";
import { freeText, singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// Admin routes over bans and other users' sessions.

const UserIdBody = z.object({ userId: singleLine().min(1) });

export const adminBanUser = defineRoute({
  method: "POST",
  path: "/admin/ban-user",
  summary: "Ban a user and revoke all their sessions (admin)",
  description: "banExpiresIn is in seconds; without it the ban lasts until unban-user.",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({
    userId: singleLine().min(1),
    banReason: freeText().optional(),
    banExpiresIn: z.number().positive().optional(),
  }),
  response: z.object({ user: UserSchema }),
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["ban"] });
    if (actor.kind === "user" && actor.userId === body.userId) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
    const user = await banUser(
      ctx,
      body.userId,
      { reason: body.banReason, expiresIn: body.banExpiresIn },
      adminRequestSource(c, ctx, actor),
    );
    return { user: toUserWire(ctx, user) };
  },
});

export const adminUnbanUser = defineRoute({
  method: "POST",
  path: "/admin/unban-user",
  summary: "Lift a user's ban (admin)",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: UserIdBody,
  response: z.object({ user: UserSchema }),
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["ban"] });
    return { user: toUserWire(ctx, await unbanUser(ctx, body.userId, adminRequestSource(c, ctx, actor))) };
  },
});

export const adminListUserSessions = defineRoute({
  method: "POST",
  path: "/admin/list-user-sessions",
  summary: "List a user's live sessions (admin)",
  description: "Each session's token is its handle for revoke-user-session, not a credential.",
  tags: ["Admin"],
  auth: "session-or-server",
  body: UserIdBody,
  response: z.object({ sessions: z.array(SessionSchema) }),
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { session: ["list"] });
    const now = ctx.now();
    const sessions = await listUserSessions(ctx, body.userId);
    return { sessions: sessions.filter((s) => Number(s.expiresAt) > now).map((s) => toListedSessionWire(ctx, s)) };
  },
});

export const adminRevokeUserSession = defineRoute({
  method: "POST",
  path: "/admin/revoke-user-session",
  summary: "Revoke one session by its handle or token (admin)",
  description: "sessionToken is the token field of a listed session (its handle) or the session token itself.",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ sessionToken: singleLine().min(1) }),
  response: SuccessSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { session: ["revoke"] });
    await revokeSessionsOf(ctx, { handle: body.sessionToken }, adminRequestSource(c, ctx, actor));
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
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { session: ["revoke"] });
    await revokeSessionsOf(ctx, { userId: body.userId }, adminRequestSource(c, ctx, actor));
    return { success: true };
  },
});
