import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url } from "../../crypto/hmac.ts";
import { constantTimeEqual, generateRandomString } from "../../crypto/random.ts";
import { authCookieName, readSignedCookie, setSignedCookie } from "../cookies.ts";

// Anti-forgery for the pages' forms. The browser holds a random value in a signed, HttpOnly cookie; each
// form carries a token derived from it with the app secret. Another site can make a browser post a form,
// but cannot read the cookie or the page, so it cannot know the token. The Origin check (guard.ts) comes on
// top of this, for browsers that send one.

const COOKIE_SUFFIX = "page_csrf";
const PURPOSE = "authd-page-csrf:";

const tokenFor = (ctx: AuthContext, value: string) => hmacSha256Base64Url(ctx.secret, PURPOSE + value);

/** The token for this browser's forms, setting its cookie when it has none yet. */
export function formToken(c: Context, ctx: AuthContext): string {
  const name = authCookieName(ctx, COOKIE_SUFFIX);
  let value = readSignedCookie(c, ctx, name);
  if (!value) {
    value = generateRandomString(32);
    setSignedCookie(c, ctx, name, value);
  }
  return tokenFor(ctx, value);
}

/** Whether a posted token belongs to this browser's cookie (constant time). */
export function isFormTokenValid(c: Context, ctx: AuthContext, posted: string | undefined): boolean {
  const value = readSignedCookie(c, ctx, authCookieName(ctx, COOKIE_SUFFIX));
  if (!value || !posted) return false;
  return constantTimeEqual(posted, tokenFor(ctx, value));
}
