import * as z from "zod";
import { requestEmailChange } from "../../services/email-change.ts";
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
    "An unverified address changes at once and the new one receives a verification mail. A verified address changes only after the link mailed to it is followed while signed in; the new address then starts unverified and receives its own verification mail.",
  tags: ["User"],
  auth: "session",
  body: z.object({ newEmail: z.email(), callbackURL: singleLine().optional() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session }) => {
    const { user } = session;
    const source = requestSource(c, ctx, "user", user.id);
    const outcome = await requestEmailChange(ctx, user, body.newEmail, body.callbackURL, source);
    if ("changed" in outcome) setSessionDataCookie(c, ctx, { session: session.session, user: outcome.changed });
    return { status: true };
  },
});
