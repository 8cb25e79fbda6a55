import * as z from "zod";
import { updateProfile } from "../../services/user-profile.ts";
import { StatusSchema } from "../../wire/common.ts";
import { hasDontRememberCookie, setSessionCookies, setSessionDataCookie } from "../cookies.ts";
import { jsonValue, singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { holdsSessionToken } from "../session.ts";

export const updateUserRoute = defineRoute({
  method: "POST",
  path: "/update-user",
  summary: "Update the caller's name, image, username or configured extra fields",
  description: "The email cannot be changed here (use /change-email).",
  tags: ["User"],
  auth: "session",
  body: z
    .object({
      name: singleLine().optional(),
      image: singleLine().nullable().optional(),
      username: singleLine().optional(),
      displayUsername: singleLine().optional(),
    })
    .catchall(jsonValue()),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session }) => {
    const updated = await updateProfile(ctx, session.user, body, requestSource(c, ctx, "user", session.user.id));
    // The session cookie is written again, as Better Auth does (bearer clients read it from set-auth-token);
    // an API key standing in for a session never becomes a cookie.
    if (holdsSessionToken(session))
      setSessionCookies(
        c,
        ctx,
        { session: session.session, user: updated },
        { dontRemember: hasDontRememberCookie(c, ctx) },
      );
    else setSessionDataCookie(c, ctx, { session: session.session, user: updated });
    return { status: true };
  },
});
