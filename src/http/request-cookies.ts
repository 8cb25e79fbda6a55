import type { Context } from "hono";
import { parse } from "hono/utils/cookie";
import type { AuthContext } from "../context.ts";
import { unsignWithAny } from "../crypto/hmac.ts";
import { KeptOutcomes } from "../platform/kept-outcomes.ts";
import { perContext } from "../platform/per-context.ts";

// A request's cookies are read several times while it is answered (get-session alone asks for the session
// token twice and for dont_remember once): the Cookie header is parsed once per request, and a signed
// cookie's signature is checked once per request, by the same rules as hono's getCookie and unsignWithAny.
//
// A client sends the same Cookie header on request after request, so both are also kept by their exact
// input (platform/kept-outcomes.ts): a header's parsed cookies (frozen, shared by the requests that sent
// it), and the value of each signed cookie whose signature was good (a forged or mangled one is never kept,
// so it is checked again every time). The secrets a value was checked with are the context's: one set per
// context, so the check is kept per context.

const NO_COOKIES: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const parsedCookies = new WeakMap<Request, Readonly<Record<string, string>>>();
const verifiedCookies = new WeakMap<Request, Map<string, string | null>>();

/** Headers kept parsed: a browser's Cookie header with authd's three cookies is 1-2 KB. */
const parsedHeaders = new KeptOutcomes<Readonly<Record<string, string>>>(256, 4096);
/** Good signed values kept per context (a signed session token is about 80 characters). */
const goodSignatures = perContext(() => new KeptOutcomes<string>(1000, 1024));

const parseHeader = (header: string) => Object.freeze(parse(header));

/** A cookie the request carries (percent-decoded as hono decodes it), or undefined. */
export function requestCookie(c: Context, name: string): string | undefined {
  const request = c.req.raw;
  let jar = parsedCookies.get(request);
  if (!jar) {
    const header = request.headers.get("cookie");
    jar = (header && parsedHeaders.get(header, parseHeader)) || NO_COOKIES;
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
  const value = raw ? unsignKept(ctx, raw) : null;
  verified.set(name, value);
  return value;
}

/**
 * The value of a signed "value.signature" string under any of the context's accepted secrets, or null: as
 * unsignWithAny, with good values kept (a session token presented as a cookie or a bearer header).
 */
export function unsignKept(ctx: AuthContext, signed: string): string | null {
  const secrets = ctx.acceptedSecrets;
  return goodSignatures(ctx).get(signed, (value) => unsignWithAny(secrets, value) ?? undefined) ?? null;
}
