import * as z from "zod";
import { signUpWithPassword } from "../../services/sign-up.ts";
import { toUserWire } from "../../services/users.ts";
import { TokenAndUserSchema } from "../../wire/user.ts";
import { setSessionCookies } from "../cookies.ts";
import { jsonValue, singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestOrigin } from "../security-log.ts";

// Extra keys are the configured additional user fields (checked by pickAdditionalFields).
export const SignUpBody = z
  .object({
    name: singleLine().optional(),
    email: singleLine(),
    password: z.string(),
    image: singleLine().nullable().optional(),
    callbackURL: singleLine().optional(),
    rememberMe: z.boolean().optional(),
    username: singleLine().optional(),
    displayUsername: singleLine().optional(),
  })
  .catchall(jsonValue());

export const signUpEmail = defineRoute({
  method: "POST",
  path: "/sign-up/email",
  startsSession: true,
  summary: "Create a user with email and password",
  description:
    "Signs the new user in unless auto sign-in is off or email verification is required (then token is null).",
  tags: ["Email"],
  body: SignUpBody,
  response: TokenAndUserSchema,
  handler: async ({ c, ctx, body }) => {
    const request = { ...requestOrigin(c, ctx), rememberMe: body.rememberMe };
    const { user, session } = await signUpWithPassword(ctx, { ...body, fields: body }, request);
    if (session) setSessionCookies(c, ctx, { session, user }, { dontRemember: body.rememberMe === false });
    return { token: session?.token ?? null, user: toUserWire(ctx, user) };
  },
});
