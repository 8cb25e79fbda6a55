import * as z from "zod";
import type { AuthContext } from "../context.ts";
import { ErrorBodySchema } from "../wire/common.ts";
import type { Route } from "./route.ts";
import { type DocumentedError, routeErrors } from "./route-errors.ts";

// The OpenAPI 3.1 document, generated from the very route list the app mounts and the zod schemas that
// validate requests, so the documentation cannot drift from the behaviour.

type JSONSchema = Record<string, unknown>;

export interface OpenAPIDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  tags: { name: string }[];
}

function toJSONSchema(schema: z.ZodType, io: "input" | "output"): JSONSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JSONSchema;
  delete json.$schema;
  return json;
}

/** Hono's "/reset-password/:token" is OpenAPI's "/reset-password/{token}". */
export function toOpenAPIPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function queryParameters(route: Route): unknown[] {
  if (!route.query) return [];
  const json = toJSONSchema(route.query, "input");
  const properties = (json.properties ?? {}) as Record<string, JSONSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema,
  }));
}

function pathParameters(route: Route): unknown[] {
  return [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

/** One response per status, listing each error (code and message from the catalogue) as an example. */
function errorResponses(route: Route): Record<string, unknown> {
  const byStatus = new Map<number, DocumentedError[]>();
  for (const error of routeErrors(route)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Record<string, unknown> = {};
  for (const [status, errors] of byStatus) {
    const examples = Object.fromEntries(
      errors.map((e) => [e.code, { summary: e.message, value: { code: e.code, message: e.message } }]),
    );
    responses[String(status)] = {
      description: errors.map((e) => `\`${e.code}\`: ${e.message}`).join("\n\n"),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, examples } },
    };
  }
  return responses;
}

function security(route: Route): unknown[] | undefined {
  if (route.serverOnly) return [{ serverToken: [] }];
  if (route.auth === "session") return [{ sessionCookie: [] }, { apiKey: [] }];
  if (route.auth === "session-or-server") return [{ sessionCookie: [] }, { apiKey: [] }, { serverToken: [] }];
  return undefined;
}

function operation(route: Route): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    "200": route.response
      ? { description: "Success", content: { "application/json": { schema: toJSONSchema(route.response, "output") } } }
      : { description: "Success" },
    ...errorResponses(route),
  };
  const op: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ""))}`,
    summary: route.summary,
    tags: route.tags,
    parameters: [...pathParameters(route), ...queryParameters(route)],
    responses,
  };
  if (route.description) op.description = route.description;
  const sec = security(route);
  if (sec) op.security = sec;
  if (route.method !== "GET" && route.body) {
    op.requestBody = { required: true, content: { "application/json": { schema: toJSONSchema(route.body, "input") } } };
  }
  return op;
}

/**
 * Sections in the order a reader needs them: signing up and in first, then the session, the account's
 * own flows, then organizations, API keys and administration; health last. Unlisted tags go before Health.
 */
export const TAG_ORDER = [
  "Email",
  "Username",
  "Social",
  "Session",
  "Email verification",
  "Password",
  "User",
  "Accounts",
  "Organization",
  "API keys",
  "Admin",
  "Health",
];

function tagRank(route: Route): number {
  const rank = TAG_ORDER.indexOf(route.tags[0] ?? "");
  return rank === -1 ? TAG_ORDER.length - 1.5 : rank;
}

/** The routes sorted by section, keeping their order within a section (a stable sort). */
export function inReaderOrder(routes: Route[]): Route[] {
  return [...routes].sort((a, b) => tagRank(a) - tagRank(b));
}

export function buildOpenAPIDocument(ctx: AuthContext, routes: Route[]): OpenAPIDocument {
  const paths: OpenAPIDocument["paths"] = {};
  for (const route of inReaderOrder(routes)) {
    const path = `${ctx.config.basePath}${toOpenAPIPath(route.path)}`;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(inReaderOrder(routes).flatMap((r) => r.tags))].map((name) => ({ name }));
  const cookieName = `${ctx.config.cookies.prefix}.session_token`;
  return {
    openapi: "3.1.0",
    info: {
      title: "authd",
      version: "0.1.0",
      description:
        "Self-hosted auth daemon speaking Better Auth's wire protocol. Errors are JSON bodies {code, message}.",
    },
    servers: [{ url: ctx.baseURL }],
    paths,
    components: {
      schemas: { Error: toJSONSchema(ErrorBodySchema, "output") },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: cookieName },
        apiKey: { type: "apiKey", in: "header", name: ctx.config.apiKey.headers[0] ?? "x-api-key" },
        serverToken: { type: "http", scheme: "bearer", description: "AUTH_SERVER_TOKEN, for server calls" },
      },
    },
    tags,
  };
}
