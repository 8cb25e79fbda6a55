import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { pickAdditionalFields } from "../../services/user-fields.ts";
import { prepareUsernameForSignUp } from "../../services/usernames.ts";
import { assertPasswordLength, createUser, findUserByEmail, toUserWire } from "../../services/users.ts";
import { TokenAndUserSchema } from "../../wire/user.ts";
import { jsonValue, singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { startUserSession } from "../sign-in.ts";

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
    const options = ctx.config.emailAndPassword;
    if (!options.enabled || options.disableSignUp) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
    const email = requireValidEmail(body.email);
    assertPasswordLength(ctx, body.password);
    const username = await prepareUsernameForSignUp(ctx, body);
    if (await findUserByEmail(ctx, email)) throw new AuthError("USER_ALREADY_EXISTS");
    const additional = pickAdditionalFields(ctx, body, "create");
    const user = await createUser(ctx, {
      email,
      name: body.name,
      image: body.image ?? null,
      password: body.password,
      ...username,
      additional,
      event: (created) => ({
        type: "sign_up",
        outcome: "success",
        method: "email",
        userId: created.id,
        source: requestSource(c, ctx, "user", created.id),
      }),
    });

    const mustVerify = options.requireEmailVerification;
    if (ctx.config.emailVerification.sendOnSignUp || mustVerify)
      await sendVerificationEmail(ctx, user, body.callbackURL);
    if (!options.autoSignIn || mustVerify) return { token: null, user: toUserWire(ctx, user) };

    const session = await startUserSession(c, ctx, user, body.rememberMe);
    return { token: session.token, user: toUserWire(ctx, user) };
  },
});
