import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { authCookieName, readSignedCookie, setSignedCookie } from "../cookies.ts";

// The address a code was just mailed to (a sign-in code, or the code a verification or sign-in link's mail
// carries), for the page that takes the code. It travels in a signed cookie of this browser's, for as long as
// a code lives, not in the URL, where access logs and the browser's history would keep it.

const CODE_EMAIL_COOKIE = "page_code_email";

export function rememberCodeAddress(c: Context, ctx: AuthContext, email: string): void {
  setSignedCookie(c, ctx, authCookieName(ctx, CODE_EMAIL_COOKIE), email, ctx.config.emailOTP.expiresIn);
}

/** The address remembered for this browser, or "" when none (or a forged one). */
export function rememberedCodeAddress(c: Context, ctx: AuthContext): string {
  return readSignedCookie(c, ctx, authCookieName(ctx, CODE_EMAIL_COOKIE)) ?? "";
}
