import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { exposeHeader, setAnswerHeader } from "./answer-headers.ts";
import { cookieNames } from "./cookies.ts";
import { isServerCall } from "./request.ts";
import { unsignKept } from "./request-cookies.ts";

// Better Auth's bearer flow: `Authorization: Bearer <token>` stands in for the session cookie, and every
// answer that sets a session cookie repeats its value in `set-auth-token` for clients without a cookie jar.
// The header also carries the server token (AUTH_SERVER_TOKEN): that value is a server call, never a session.

const PREFIX = "Bearer ";

/**
 * The session token an `Authorization: Bearer` header proves, or null. The signed cookie value
 * (`token.signature`, URL-encoded as set-auth-token sends it) must carry a valid signature; a value
 * without a dot is the raw session token of a sign-in answer. A decoded signed value (with `=`, `+` or `/`)
 * is refused, as Better Auth refuses it. Other schemes (Basic) are not session tokens.
 */
export function readBearerSessionToken(c: Context, ctx: AuthContext): string | null {
  if (!ctx.config.bearer.enabled) return null;
  const header = c.req.header("authorization");
  if (!header?.startsWith(PREFIX) || isServerCall(c, ctx)) return null;
  const value = header.slice(PREFIX.length).trim();
  if (!value) return null;
  if (!value.includes(".")) return value;
  if (/[=+/]/.test(value)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  return unsignKept(ctx, decoded);
}

/** The value of the last session_token cookie a response sets, or null when it sets none or clears it. */
function sessionCookieValue(setCookies: string[], name: string): string | null {
  let value: string | null = null;
  for (const line of setCookies) {
    if (!line.startsWith(`${name}=`)) continue;
    const cookie = line.slice(name.length + 1).split(";")[0];
    value = cookie === "" || /;\s*max-age=0\s*(;|$)/i.test(line) ? null : cookie;
  }
  return value;
}

/** set-auth-token: the session cookie's value, exactly as in Set-Cookie, on every answer that sets one. */
export function addAuthTokenHeader(ctx: AuthContext): (c: Context) => void {
  const name = cookieNames(ctx).sessionToken;
  return (c) => {
    if (!c.res.headers.has("set-cookie")) return;
    const value = sessionCookieValue(c.res.headers.getSetCookie(), name);
    if (value === null) return;
    setAnswerHeader(c, "set-auth-token", value);
    exposeHeader(c, "set-auth-token");
  };
}
