// Response bodies are JSON whose dates are ISO strings; the client hands them out as Date objects, as
// Better Auth's client does, so `session.expiresAt.getTime()` works in apps written for it.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function revive(key: string, value: unknown): unknown {
  // Drop prototype-pollution keys: the parsed object may be spread into app state.
  if (key === "__proto__" || key === "constructor") return undefined;
  if (typeof value === "string" && ISO_DATE.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return value;
}

/** Parses a response body: empty → null, JSON → value with dates revived, anything else → the text. */
export function parseBody(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text, revive);
  } catch {
    return text;
  }
}

/** Query values as strings: dates in ISO form, objects as JSON; undefined and null are left out. */
export function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item instanceof Date) params.append(name, item.toISOString());
      else if (typeof item === "object") params.append(name, JSON.stringify(item));
      else params.append(name, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
