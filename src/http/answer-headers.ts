import type { Context } from "hono";

// How every layer adds a header to an answer that is already made.
//
// Hono's own helpers copy the whole answer whenever a header is added after the handler ran (and its cors
// middleware makes a placeholder answer before it, merged into the real one afterwards): five or six
// Response objects for one get-session. Here headers added afterwards go straight into the answer's own
// headers; only an answer whose headers cannot change (Response.redirect) is copied, as Hono does.

declare module "hono" {
  interface ContextVariableMap {
    /** Headers named in Access-Control-Expose-Headers once the answer is made (see exposeHeader). */
    exposedHeaders: string[];
  }
}

/** Set (or append to) a header of the answer already made. */
export function setAnswerHeader(c: Context, name: string, value: string, append = false): void {
  try {
    if (append) c.res.headers.append(name, value);
    else c.res.headers.set(name, value);
  } catch {
    c.header(name, value, { append });
  }
}

export function addExposed(c: Context, names: string[]): void {
  const current = c.res.headers.get("access-control-expose-headers");
  const listed = (current ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const missing = names.filter((name) => !listed.some((entry) => entry.toLowerCase() === name));
  if (missing.length > 0) setAnswerHeader(c, "access-control-expose-headers", [...listed, ...missing].join(", "));
}

/** Name a header in Access-Control-Expose-Headers, so scripts on trusted origins may read it. */
export function exposeHeader(c: Context, name: string): void {
  const pending = c.get("exposedHeaders");
  if (!c.finalized) {
    if (pending) pending.push(name);
    else c.set("exposedHeaders", [name]);
    return;
  }
  addExposed(c, pending ? [...pending, name] : [name]);
  if (pending) c.set("exposedHeaders", []);
}
