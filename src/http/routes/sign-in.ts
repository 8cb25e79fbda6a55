import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { verifyAgainstDummy, verifyPassword } from "../../crypto/password.ts";
import { findCredentialAccount } from "../../db/repositories/accounts.ts";
import { findUserByEmail } from "../../db/repositories/users.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { sendVerificationEmail } from "../../services/email-verification.ts";
import { createSession } from "../../services/sessions.ts";
import { toUserWire } from "../../services/users.ts";
import { setSessionCookies } from "../cookies.ts";
import { headerClientIp } from "../request.ts";
import { defineRoute } from "../route.ts";
import { isValidEmail, UserSchema } from "./schemas.ts";

/**
 * The password of a user's credential account, checked in about the time a real check takes even when
 * there is no user or no password (so timing does not reveal which emails exist).
 */
export async function checkCredentials(ctx: AuthContext, user: UserRow | undefined, password: string): Promise<boolean> {
  const account = user ? await findCredentialAccount(ctx.db, user.id) : undefined;
  if (!account?.password) {
    await verifyAgainstDummy(password);
    return false;
  }
  return verifyPassword(account.password, password);
}

/** Start a session for a user who proved who they are, and set its cookies. */
export async function signInUser(c: Context, ctx: AuthContext, user: UserRow, rememberMe: boolean | undefined) {
  const session = await createSession(ctx, user, { rememberMe, ipAddress: headerClientIp(c, ctx), userAgent: c.req.header("user-agent") ?? "" });
  setSessionCookies(c, ctx, { session, user }, { dontRemember: rememberMe === false });
  return session;
}

export const signInEmail = defineRoute({
  method: "POST",
  path: "/sign-in/email",
  summary: "Sign in with email and password",
  tags: ["Email"],
  body: z.object({
    email: z.string(),
    password: z.string(),
    callbackURL: z.string().optional(),
    rememberMe: z.boolean().optional(),
  }),
  response: z.object({ redirect: z.boolean(), token: z.string(), url: z.string().optional(), user: UserSchema }),
  handler: async ({ c, ctx, body }) => {
    if (!ctx.config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    const email = body.email.trim().toLowerCase();
    if (!isValidEmail(email)) throw new AuthError("INVALID_EMAIL");
    const user = await findUserByEmail(ctx.db, email);
    if (!(await checkCredentials(ctx, user, body.password)) || !user) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    if (ctx.config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      if (ctx.config.emailVerification.sendOnSignUp) await sendVerificationEmail(ctx, user, body.callbackURL);
      throw new AuthError("EMAIL_NOT_VERIFIED");
    }
    const session = await signInUser(c, ctx, user, body.rememberMe);
    return { redirect: Boolean(body.callbackURL), token: session.token, url: body.callbackURL, user: toUserWire(ctx, user) };
  },
});
