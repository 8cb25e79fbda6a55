import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { createSession } from "../../services/sessions.ts";
import { assertPasswordLength, createUser, pickAdditionalFields, toUserWire } from "../../services/users.ts";
import { setSessionCookies } from "../cookies.ts";
import { headerClientIp } from "../request.ts";
import { defineRoute } from "../route.ts";
import { isValidEmail, TokenUserSchema } from "./schemas.ts";
import { findUserByEmail } from "../../db/repositories/users.ts";
import { prepareUsernameForSignUp } from "../../services/usernames.ts";

export const SignUpBody = z.looseObject({
  name: z.string().optional(),
  email: z.string(),
  password: z.string(),
  image: z.string().nullable().optional(),
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
  username: z.string().optional(),
  displayUsername: z.string().optional(),
});

export const signUpEmail = defineRoute({
  method: "POST",
  path: "/sign-up/email",
  summary: "Create a user with email and password",
  description: "Signs the new user in unless auto sign-in is off or email verification is required (then token is null).",
  tags: ["Email"],
  body: SignUpBody,
  response: TokenUserSchema,
  handler: async ({ c, ctx, body }) => {
    const options = ctx.config.emailAndPassword;
    if (!options.enabled || options.disableSignUp) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
    const email = body.email.trim().toLowerCase();
    if (!isValidEmail(email)) throw new AuthError("INVALID_EMAIL");
    assertPasswordLength(ctx, body.password);
    const username = await prepareUsernameForSignUp(ctx, body);
    if (await findUserByEmail(ctx.db, email)) throw new AuthError("USER_ALREADY_EXISTS");
    const additional = pickAdditionalFields(ctx, body, "create");
    const user = await createUser(ctx, { email, name: body.name, image: body.image ?? null, password: body.password, ...username, additional });

    const mustVerify = options.requireEmailVerification;
    if (ctx.config.emailVerification.sendOnSignUp || mustVerify) await sendVerificationEmail(ctx, user, body.callbackURL);
    if (!options.autoSignIn || mustVerify) return { token: null, user: toUserWire(ctx, user) };

    const session = await createSession(ctx, user, {
      rememberMe: body.rememberMe,
      ipAddress: headerClientIp(c, ctx),
      userAgent: c.req.header("user-agent") ?? "",
    });
    setSessionCookies(c, ctx, { session, user }, { dontRemember: body.rememberMe === false });
    return { token: session.token, user: toUserWire(ctx, user) };
  },
});
