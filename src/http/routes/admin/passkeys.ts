import * as z from "zod";
import { actorFor, assertAdminPermission } from "../../../services/admin.ts";
import { listUserPasskeys, removeUserPasskey } from "../../../services/passkeys/operator.ts";
import { SuccessSchema } from "../../../wire/common.ts";
import { PasskeySchema } from "../../../wire/passkey.ts";
import { singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// authd's admin routes over a user's passkeys (Better Auth's admin plugin has none). Listing needs the
// user:list permission; removing a sign-in method needs user:set-password, the permission over credentials.

export const adminListUserPasskeys = defineRoute({
  method: "POST",
  path: "/admin/list-user-passkeys",
  summary: "List a user's passkeys (admin)",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1) }),
  response: z.object({ passkeys: z.array(PasskeySchema) }),
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["list"] });
    return { passkeys: await listUserPasskeys(ctx, body.userId) };
  },
});

export const adminRemoveUserPasskey = defineRoute({
  method: "POST",
  path: "/admin/remove-user-passkey",
  summary: "Remove one of a user's passkeys (admin)",
  description: "A passkey id that is not the user's answers 404 PASSKEY_NOT_FOUND.",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1), passkeyId: singleLine().min(1) }),
  response: SuccessSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["set-password"] });
    await removeUserPasskey(ctx, body.userId, body.passkeyId, adminRequestSource(c, ctx, actor));
    return { success: true };
  },
});

export const adminPasskeyRoutes = [adminListUserPasskeys, adminRemoveUserPasskey];
