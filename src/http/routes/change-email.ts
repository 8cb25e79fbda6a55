import * as z from "zod";
import { requestEmailChange } from "../../services/email-change.ts";
import { assertRecentSignIn } from "../../services/sessions/sessions.ts";
import { StatusSchema } from "../../wire/common.ts";
import { setSessionDataCookie } from "../cookies.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";

export const changeEmailRoute = defineRoute({
  method: "POST",
  path: "/change-email",
  summary: "Change the caller's email address",
  description:
    "An unverified address changes at once and the new one receives a verification mail. A verified address changes only after the link mailed to it is followed while signed in; the new address then starts unverified and receives its own verification mail. The session's sign-in must be at most account.freshAge old (SESSION_NOT_FRESH otherwise; a server call is exempt).",
  tags: ["User"],
  auth: "session",
  body: z.object({ newEmail: z.email(), callbackURL: singleLine().optional() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const { user } = session;
    if (!isServer) assertRecentSignIn(ctx, session.session);
    const source = requestSource(c, ctx, "user", user.id);
    const outcome = await requestEmailChange(ctx, user, body.newEmail, body.callbackURL, source);
    if ("changed" in outcome) setSessionDataCookie(c, ctx, { session: session.session, user: outcome.changed });
    return { status: true };
  },
});
