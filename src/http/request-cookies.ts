import type { Context } from "hono";
import { parse } from "hono/utils/cookie";
import type { AuthContext } from "../context.ts";
import { unsignWithAny } from "../crypto/hmac.ts";

// A request's cookies are read several times while it is answered (get-session alone asks for the session
// token twice and for dont_remember once): the Cookie header is parsed once per request, and a signed
// cookie's signature is checked once per request, by the same rules as hono's getCookie and unsignWithAny.

const NO_COOKIES: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const parsedCookies = new WeakMap<Request, Record<string, string>>();
const verifiedCookies = new WeakMap<Request, Map<string, string | null>>();

/** A cookie the request carries (percent-decoded as hono decodes it), or undefined. */
export function requestCookie(c: Context, name: string): string | undefined {
  const request = c.req.raw;
  let jar = parsedCookies.get(request);
  if (!jar) {
    const header = request.headers.get("cookie");
    jar = header ? parse(header) : NO_COOKIES;
    parsedCookies.set(request, jar);
  }
  return jar[name];
}

/**
 * The value of a signed cookie the request carries, under any accepted secret, or null when it is missing or
 * its signature does not match.
 */
export function verifiedCookie(c: Context, ctx: AuthContext, name: string): string | null {
  const request = c.req.raw;
  let verified = verifiedCookies.get(request);
  if (!verified) {
    verified = new Map();
    verifiedCookies.set(request, verified);
  }
  const known = verified.get(name);
  if (known !== undefined) return known;
  const raw = requestCookie(c, name);
  const value = raw ? unsignWithAny(ctx.acceptedSecrets, raw) : null;
  verified.set(name, value);
  return value;
}
