import * as z from "zod";
import { actorFor, assertAdminPermission } from "../../../services/admin.ts";
import { resetTwoFactor } from "../../../services/two-factor/enrollment.ts";
import { toUserWire } from "../../../services/users.ts";
import { UserSchema } from "../../../wire/user.ts";
import { singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// An administrator removes a user's second factor (a lost phone). Its own permission (user:
// reset-two-factor), so a role can be given it alone.

export const adminResetTwoFactor = defineRoute({
  method: "POST",
  path: "/admin/reset-two-factor",
  summary: "Remove a user's second factor: TOTP secret, backup codes, trusted browsers (admin)",
  description: "The user signs in with the password alone until they enable two-factor again.",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1) }),
  response: z.object({ user: UserSchema }),
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["reset-two-factor"] });
    return { user: toUserWire(ctx, await resetTwoFactor(ctx, body.userId, adminRequestSource(c, ctx, actor))) };
  },
});
