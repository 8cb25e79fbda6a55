import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission } from "../../../services/admin.ts";
import { IMPERSONATION_REASON_MAX, startImpersonation } from "../../../services/impersonation.ts";
import { toSessionWire } from "../../../services/sessions/sessions.ts";
import { toUserWire } from "../../../services/users.ts";
import { SessionWithUserSchema } from "../../../wire/session.ts";
import { clientAddress } from "../../client-address.ts";
import { singleLine } from "../../fields.ts";
import { switchBackFromImpersonation, switchToImpersonation } from "../../impersonation.ts";
import { defineRoute } from "../../route.ts";
import { requestSource } from "../../security-log.ts";
import { holdsSessionToken } from "../../session.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// Impersonation: the admin's own session token is parked in a signed admin_session cookie while a
// short-lived session marked impersonatedBy stands in for the target user (src/http/impersonation.ts); the
// rules are services/impersonation.ts's, shared with the web console.

export const adminImpersonateUser = defineRoute({
  method: "POST",
  path: "/admin/impersonate-user",
  startsSession: true,
  summary: "Sign in as another user for a short while (admin)",
  description:
    "The admin's session is kept aside and restored by /admin/stop-impersonating. authd addition: an optional " +
    "`reason`, recorded on the impersonation_started event.",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session",
  body: z.object({ userId: singleLine().min(1), reason: singleLine().max(IMPERSONATION_REASON_MAX).optional() }),
  response: SessionWithUserSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const current = session;
    // Parking an API-key "session" in a cookie would turn a header credential into a browser one.
    if (!holdsSessionToken(current)) throw new AuthError("UNAUTHORIZED");
    assertAdminPermission(ctx, actorFor(isServer, current.user), { user: ["impersonate"] });
    const options = {
      reason: body.reason,
      ipAddress: clientAddress(c, ctx),
      userAgent: c.req.header("user-agent") ?? "",
    };
    const source = requestSource(c, ctx, "admin", current.user.id);
    const impersonation = await startImpersonation(ctx, current.user.id, body.userId, options, source);
    switchToImpersonation(c, ctx, current, impersonation);
    return { session: toSessionWire(ctx, impersonation.session), user: toUserWire(ctx, impersonation.user) };
  },
});

export const adminStopImpersonating = defineRoute({
  method: "POST",
  path: "/admin/stop-impersonating",
  startsSession: true,
  summary: "End an impersonation and return to the admin's own session",
  tags: ["Admin"],
  auth: "session",
  response: SessionWithUserSchema,
  handler: async ({ c, ctx, session }) => {
    const admin = await switchBackFromImpersonation(c, ctx, session);
    return { session: toSessionWire(ctx, admin.session), user: toUserWire(ctx, admin.user) };
  },
});
