import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../context.ts";
import { AuthError, type ErrorKey, isAuthError } from "../errors.ts";
import { KeptOutcomes } from "../platform/kept-outcomes.ts";
import { hasControlCharacters } from "../services/control-characters.ts";
import { readRequestBody } from "./body.ts";
import { CONTROL_CHARACTER_MESSAGE } from "./fields.ts";
import { keptJSON } from "./kept-json.ts";
import { noteUser } from "./middleware/request-log.ts";
import { assertTrustedOrigin, assertTrustedRedirects, isServerCall } from "./request.ts";
import { type ResolvedSession, resolveSession } from "./session.ts";

// A route is data: method, path, zod schemas, who may call it, and a handler. The app mounts the list,
// and the OpenAPI document is generated from the same list, so the two cannot drift apart.

/** A feature's built-in rate-limit rules (routes/rate-limit-rules.ts lists them all). */
export interface RateLimits {
  /** Per client and path: at most `max` requests in `window` seconds; a path ending in `*` is a prefix. */
  limited?: readonly { path: string; window: number; max: number }[];
  /** Paths no built-in rule counts (a custom rule still may). */
  unlimited?: readonly string[];
}

export type HttpMethod = "GET" | "POST";

/**
 * none: public. session: a session is required (401 otherwise). optional-session: resolved when present.
 * session-or-server: a session, or a server call (which may name a userId).
 */
export type RouteAuth = "none" | "session" | "optional-session" | "session-or-server";

export interface RouteInput<Body, Query, Session> {
  c: Context;
  ctx: AuthContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** The caller's session: always there on an auth "session" route, when one was found on the others. */
  session: Session;
  /** The request carries the server token. */
  isServer: boolean;
}

interface RouteOptions<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType> {
  method: HttpMethod;
  /** Path under the base path, hono syntax for parameters ("/reset-password/:token"). */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: B;
  query?: Q;
  /** Schema of a successful JSON answer, for the OpenAPI document. */
  response?: R;
  /** Only reachable with the server token; anyone else gets 404, as for an unknown route. */
  serverOnly?: boolean;
  /** Accept application/x-www-form-urlencoded bodies too (form_post callbacks). */
  acceptsForm?: boolean;
  /**
   * The route signs a browser in (sets session cookies): a POST from an untrusted Origin or Referer is
   * refused even without cookies (login CSRF). Every route under /sign-in/ and /sign-up/ sets it.
   */
  startsSession?: boolean;
  /**
   * How this route answers a refusal a service throws, where it differs from the catalogue's plain entry:
   * another entry with the same message and code and the status this route answers with (admin routes
   * answer USER_NOT_FOUND as TARGET_USER_NOT_FOUND, 404). Services never choose a status themselves.
   */
  refusals?: Partial<Record<ErrorKey, ErrorKey>>;
  /** The one refusal of every untrusted redirect target (default: each field's own, Invalid callbackURL …). */
  redirectRefusal?: ErrorKey;
  /**
   * A missing required field answers "{field} is required" (the spec's general rule) unless this is false:
   * then "Invalid query parameters" / "Invalid body parameters", where the spec words the route so.
   */
  namesMissingFields?: boolean;
}

/** A handler answers with its response schema's shape (or a Response of its own: a redirect, a page). */
type Handler<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType, Session> = (
  input: RouteInput<z.output<B>, z.output<Q>, Session>,
) => z.output<R> | Response | Promise<z.output<R> | Response>;

interface SessionRouteDefinition<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType>
  extends RouteOptions<B, Q, R> {
  auth: "session";
  handler: Handler<B, Q, R, ResolvedSession>;
}

interface OpenRouteDefinition<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType>
  extends RouteOptions<B, Q, R> {
  auth?: Exclude<RouteAuth, "session">;
  handler: Handler<B, Q, R, ResolvedSession | null>;
}

/** A route as written: its handler sees the body and query its schemas produce, and a session when it requires one. */
export type RouteDefinition<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType> =
  | SessionRouteDefinition<B, Q, R>
  | OpenRouteDefinition<B, Q, R>;

/** Any route definition, as the implementation sees it. */
type AnyRouteDefinition = RouteDefinition<z.ZodType, z.ZodType, z.ZodType>;

/** A route as the app mounts it and the OpenAPI document lists it. */
export interface Route extends RouteOptions<z.ZodType, z.ZodType, z.ZodType> {
  auth: RouteAuth;
  /** Validate the request against the route's rules and schemas, then run its handler. */
  run(c: Context, ctx: AuthContext): Promise<unknown>;
}

export function defineRoute<
  B extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  R extends z.ZodType = z.ZodUnknown,
>(definition: RouteDefinition<B, Q, R>): Route;
// The implementation sees every schema as z.ZodType (its output unknown); each call site is checked
// against the typed signature above.
export function defineRoute(definition: AnyRouteDefinition): Route {
  const { handler: _handler, ...options } = definition;
  return { ...options, auth: definition.auth ?? "none", run: (c, ctx) => runRoute(definition, c, ctx) };
}

/** Query-string booleans: "true"/"false" as well as real booleans. */
export const queryBoolean = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

function validationError(error: z.ZodError, where: "body" | "query", namesMissingFields: boolean): AuthError {
  const missing = error.issues.find(
    (issue) => namesMissingFields && issue.code === "invalid_type" && issue.message.endsWith("received undefined"),
  );
  const control = error.issues.find((issue) => issue.message === CONTROL_CHARACTER_MESSAGE);
  let message = where === "body" ? "Invalid body parameters" : "Invalid query parameters";
  if (missing) message = `${missing.path.join(".")} is required`;
  else if (control) message = `${control.path.join(".") || where} ${CONTROL_CHARACTER_MESSAGE}`;
  return new AuthError("VALIDATION_ERROR", {
    message,
    details: { issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
  });
}

/** The path parameters; they arrive percent-decoded ("%00") and some are looked up in the database. */
function pathParams(c: Context): Record<string, string> {
  const params = c.req.param() as Record<string, string>;
  for (const [name, value] of Object.entries(params)) {
    if (hasControlCharacters(value))
      throw new AuthError("VALIDATION_ERROR", { message: `${name} ${CONTROL_CHARACTER_MESSAGE}` });
  }
  return params;
}

/** A service's refusal as the route answers it (see a route's refusals); anything else unchanged. */
function answeredAs(error: unknown, refusals: Route["refusals"]): unknown {
  const key = isAuthError(error) ? refusals?.[error.key] : undefined;
  if (!key || !isAuthError(error)) return error;
  const { message, details, headers, cause } = error;
  return new AuthError(key, { message, details, headers, cause });
}

/** Redirect targets in a parsed input (an object body or query) must be trusted; each input is checked on its own. */
function assertTrustedRedirectsIn(ctx: AuthContext, inputs: unknown[], refusal: Route["redirectRefusal"]): void {
  for (const input of inputs)
    if (typeof input === "object" && input !== null)
      assertTrustedRedirects(ctx, input as Record<string, unknown>, refusal);
}

function parseInput(route: AnyRouteDefinition, raw: unknown, where: "body" | "query"): unknown {
  const schema = route[where];
  if (!schema) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, where, route.namesMissingFields ?? true);
  return parsed.data;
}

/** Parsed queries kept per route, by the exact query string (a client asks the same one over and over). */
const parsedQueries = new WeakMap<AnyRouteDefinition, KeptOutcomes<Readonly<Record<string, unknown>>>>();

const isFlat = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  Object.values(value).every((field) => field === null || typeof field !== "object");

/**
 * The route's parsed query. A query string that parsed to flat fields is kept for the route: parsing is
 * pure, so the same string gives the same fields, and each request gets its own copy of them.
 */
function parseQuery(route: AnyRouteDefinition, c: Context): unknown {
  if (!route.query) return c.req.query();
  let kept = parsedQueries.get(route);
  if (!kept) {
    kept = new KeptOutcomes(64, 512);
    parsedQueries.set(route, kept);
  }
  const url = c.req.url;
  const mark = url.indexOf("?");
  let parsed: unknown;
  const flat = kept.get(mark === -1 ? "" : url.slice(mark + 1), () => {
    parsed = parseInput(route, c.req.query(), "query");
    return isFlat(parsed) ? Object.freeze(parsed) : undefined;
  });
  return flat ? { ...flat } : parsed;
}

/** Validation, origin checks, session, then the handler (whose refusals the route may answer its own way). */
async function runRoute(route: AnyRouteDefinition, c: Context, ctx: AuthContext): Promise<unknown> {
  const isServer = isServerCall(c, ctx);
  if (route.serverOnly && !isServer) throw new AuthError("NOT_FOUND");
  // Most routes have no path parameters: nothing to read or check.
  const params = route.path.includes(":") ? pathParams(c) : {};
  const query = parseQuery(route, c);
  let body: unknown = {};
  if (route.method !== "GET") {
    body = parseInput(route, await readRequestBody(c, route.acceptsForm ?? false), "body");
    if (!isServer) assertTrustedOrigin(c, ctx, route.startsSession);
  }
  assertTrustedRedirectsIn(ctx, [query, body], route.redirectRefusal);

  const auth = route.auth ?? "none";
  const session = auth === "none" ? null : await resolveSession(c, ctx);
  if (session) noteUser(c, session.user.id);
  const input = { c, ctx, body, query, params, isServer };
  try {
    if (route.auth === "session") {
      if (!session) throw new AuthError("UNAUTHORIZED");
      return await route.handler({ ...input, session });
    }
    if (auth === "session-or-server" && !session && !isServer) throw new AuthError("UNAUTHORIZED");
    return await route.handler({ ...input, session });
  } catch (error) {
    throw answeredAs(error, route.refusals);
  }
}

const JSON_TYPE = { "Content-Type": "application/json" } as const;

/** The hono handler for a route. */
export function toHandler(ctx: AuthContext, route: Route) {
  return async (c: Context) => {
    const result = await route.run(c, ctx);
    if (result instanceof Response) return result;
    const kept = keptJSON(result);
    // As c.json answers, with the text made once for an answer handed out many times (http/kept-json.ts).
    if (kept !== undefined) return c.body(kept, undefined, JSON_TYPE);
    return c.json(result === undefined ? null : result);
  };
}
