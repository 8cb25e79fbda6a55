import type { Context } from "hono";
import { AuthError } from "../errors.ts";

// Reading a request body for a route. Only JSON is read as JSON: a cross-site <form> can send
// text/plain, application/x-www-form-urlencoded or multipart/form-data without a CORS preflight, so
// parsing any of those as JSON would let another site post credentials (login CSRF). application/json
// always needs a preflight, which the CORS policy refuses to untrusted origins.

/** Deepest nesting of arrays and objects a JSON body may have; deeper is refused before parsing. */
export const MAX_JSON_DEPTH = 64;

/** The media type of a Content-Type header, lower-case, without parameters ("" when absent). */
function mediaType(header: string | undefined): string {
  const [type = ""] = (header ?? "").split(";");
  return type.trim().toLowerCase();
}

/**
 * True when the JSON text nests arrays/objects deeper than `limit`. One linear pass, brackets inside
 * strings skipped: recursive parsers and validators would otherwise overflow the stack on hostile input.
 * For invalid JSON the answer may be wrong, but JSON.parse refuses that text anyway.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

function parseJSON(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw new AuthError("VALIDATION_ERROR", { message: `JSON nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
  try {
    return JSON.parse(text);
  } catch {
    throw new AuthError("VALIDATION_ERROR");
  }
}

/**
 * The body of a POST: JSON (application/json, any charset parameter), or with `acceptsForm` also
 * application/x-www-form-urlencoded. An empty body is an empty object whatever its declared type (Better
 * Auth clients post some calls, such as sign-out, with no body and no type). Any other body is 415.
 */
export async function readRequestBody(c: Context, acceptsForm: boolean): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  const type = mediaType(c.req.header("content-type"));
  if (type === "application/json") return parseJSON(text);
  if (acceptsForm && type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  throw new AuthError(acceptsForm ? "UNSUPPORTED_FORM_MEDIA_TYPE" : "UNSUPPORTED_MEDIA_TYPE");
}
