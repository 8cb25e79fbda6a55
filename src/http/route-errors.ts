import * as z from "zod";
import { ERRORS, type ErrorKey } from "../errors.ts";
import { REDIRECT_FIELDS } from "./request.ts";
import type { Route } from "./route.ts";
import { ROUTE_ERRORS } from "./route-errors.generated.ts";
import { UNLIMITED_PATHS } from "./routes/rate-limit-rules.ts";

// The errors a route can answer with: the request pipeline's own (server token, body, origin, redirect
// targets, session or API key, rate limit; src/http/route.ts and the app's middleware), which depend on
// what the route declares, and the ones its handler can throw (src/http/route-errors.generated.ts, written
// from the call graph by `npm run route-errors`). The API reference is generated from this;
// test/unit/route-errors.test.ts checks both halves against the call graph.

/** Refusals of a request that presents an API key header instead of a session (src/http/session.ts). */
export const API_KEY_SESSION_ERRORS: readonly ErrorKey[] = [
  "MALFORMED_API_KEY",
  "INVALID_API_KEY",
  "KEY_NOT_FOUND",
  "KEY_DISABLED",
  "KEY_EXPIRED",
  "USER_IS_BANNED",
  "USAGE_EXCEEDED",
  "RATE_LIMITED",
  "FAILED_TO_UPDATE_API_KEY",
  "INVALID_USER_ID_FROM_API_KEY",
];

function inputFields(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** What the pipeline can answer before or around this route's handler. */
export function pipelineErrors(route: Route): ErrorKey[] {
  const keys: ErrorKey[] = [];
  if (route.serverOnly) keys.push("NOT_FOUND");
  if (route.method !== "GET") {
    keys.push("VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "INVALID_ORIGIN");
    keys.push(route.acceptsForm ? "UNSUPPORTED_FORM_MEDIA_TYPE" : "UNSUPPORTED_MEDIA_TYPE");
  } else if (route.query || route.path.includes(":")) keys.push("VALIDATION_ERROR");
  const fields = new Set([...inputFields(route.body), ...inputFields(route.query)]);
  for (const [field, key] of Object.entries(REDIRECT_FIELDS)) if (fields.has(field)) keys.push(key);
  if (route.auth !== "none") keys.push(...API_KEY_SESSION_ERRORS);
  if (route.auth === "session" || route.auth === "session-or-server") keys.push("UNAUTHORIZED");
  if (!UNLIMITED_PATHS.includes(route.path)) keys.push("TOO_MANY_REQUESTS");
  // A dependency down (src/http/app.ts) or a bug.
  keys.push("SERVICE_UNAVAILABLE", "INTERNAL_SERVER_ERROR");
  return keys;
}

/**
 * What the route's handler can throw, from the generated map. A route missing from it is a map not
 * regenerated since the route was added: refusing here keeps the reference from silently listing none.
 */
export function handlerErrors(route: Pick<Route, "method" | "path">): readonly ErrorKey[] {
  const errors = ROUTE_ERRORS[`${route.method} ${route.path}`];
  if (!errors)
    throw new Error(
      `${route.method} ${route.path} has no entry in src/http/route-errors.generated.ts: run \`npm run route-errors\``,
    );
  return errors;
}

export interface DocumentedError {
  key: ErrorKey;
  status: number;
  code: string;
  message: string;
}

/** Every error the route can answer with, once per (status, code), ordered by status then code. */
export function routeErrors(route: Route): DocumentedError[] {
  const seen = new Set<string>();
  const out: DocumentedError[] = [];
  for (const key of [...pipelineErrors(route), ...handlerErrors(route)]) {
    const { status, code, message } = ERRORS[key];
    if (seen.has(`${status} ${code}`)) continue;
    seen.add(`${status} ${code}`);
    out.push({ key, status, code, message });
  }
  return out.sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}
