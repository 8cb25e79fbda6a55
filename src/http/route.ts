import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors.ts";
import { assertTrustedOrigin, assertTrustedRedirects, isServerCall } from "./request.ts";
import { type ResolvedSession, resolveSession } from "./session.ts";

// A route is data: method, path, zod schemas, who may call it, and a handler. The app mounts the list,
// and the OpenAPI document is generated from the same list, so the two cannot drift apart.

export type HttpMethod = "GET" | "POST";

/**
 * none: public. session: a session is required (401 otherwise). optional-session: resolved when present.
 * session-or-server: a session, or a server call (which may name a userId).
 */
export type RouteAuth = "none" | "session" | "optional-session" | "session-or-server";

export interface RouteInput<Body, Query> {
  c: Context;
  ctx: AuthContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** Present when auth is session, or when it is optional/session-or-server and one was found. */
  session: ResolvedSession | null;
  /** The request carries the server token. */
  isServer: boolean;
}

export interface RouteDefinition<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Path under the base path, hono syntax for parameters ("/reset-password/:token"). */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: B;
  query?: Q;
  /** Schema of a successful JSON answer, for the OpenAPI document. */
  response?: z.ZodType;
  auth?: RouteAuth;
  /** Only reachable with the server token; anyone else gets 404, as for an unknown route. */
  serverOnly?: boolean;
  /** Skip cookie refresh when resolving the session (get-session decides itself). */
  manualSession?: boolean;
  /** Accept application/x-www-form-urlencoded bodies too (form_post callbacks). */
  acceptsForm?: boolean;
  handler: (input: RouteInput<z.output<B>, z.output<Q>>) => unknown | Promise<unknown>;
}

export function defineRoute<B extends z.ZodType = z.ZodObject<{}>, Q extends z.ZodType = z.ZodObject<{}>>(definition: RouteDefinition<B, Q>): RouteDefinition {
  return definition as unknown as RouteDefinition;
}

/** Query-string booleans: "true"/"false" as well as real booleans. */
export const queryBoolean = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

function validationError(error: z.ZodError, where: "body" | "query"): AuthError {
  const missing = error.issues.find((issue) => issue.code === "invalid_type" && issue.message.endsWith("received undefined"));
  const message = missing ? `${missing.path.join(".")} is required` : where === "body" ? "Invalid body parameters" : "Invalid query parameters";
  return new AuthError("VALIDATION_ERROR", { message, details: { issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) } });
}

async function readBody(c: Context, acceptsForm: boolean): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (acceptsForm && type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(await c.req.text()));
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AuthError("VALIDATION_ERROR", { message: "Invalid body parameters" });
  }
}

/** The hono handler for a route definition: validation, origin checks, session, then the handler. */
export function toHandler(ctx: AuthContext, route: RouteDefinition) {
  return async (c: Context) => {
    const isServer = isServerCall(c, ctx);
    if (route.serverOnly && !isServer) throw new AuthError("NOT_FOUND");

    let query: unknown = c.req.query();
    if (route.query) {
      const parsed = route.query.safeParse(query);
      if (!parsed.success) throw validationError(parsed.error, "query");
      query = parsed.data;
    }
    let body: unknown = {};
    if (route.method !== "GET") {
      const raw = await readBody(c, route.acceptsForm ?? false);
      if (route.body) {
        const parsed = route.body.safeParse(raw);
        if (!parsed.success) throw validationError(parsed.error, "body");
        body = parsed.data;
      } else body = raw;
      if (!isServer) assertTrustedOrigin(c, ctx);
      assertTrustedRedirects(ctx, { ...(query as object), ...(typeof body === "object" && body !== null ? body : {}) });
    } else {
      assertTrustedRedirects(ctx, query as Record<string, unknown>);
    }

    const auth = route.auth ?? "none";
    let session: ResolvedSession | null = null;
    if (auth !== "none" && !route.manualSession) session = await resolveSession(c, ctx);
    if (auth === "session" && !session) throw new AuthError("UNAUTHORIZED");
    if (auth === "session-or-server" && !session && !isServer) throw new AuthError("UNAUTHORIZED");

    const result = await route.handler({ c, ctx, body, query, params: c.req.param() as Record<string, string>, session, isServer });
    if (result instanceof Response) return result;
    return c.json(result === undefined ? null : result);
  };
}
