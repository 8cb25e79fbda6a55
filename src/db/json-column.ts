// Columns holding JSON text (a user's extra fields, API-key metadata and permissions, organization
// metadata). Every such column is written and read here, so a value that is not a JSON object (hand-edited,
// or written by another tool) reads the same way everywhere: as absent, never as an error.

/** The JSON object stored in a column, or null when the column is empty or holds anything else. */
export function readJSONObject<T extends object = Record<string, unknown>>(text: string | null | undefined): T | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

/** The text stored for a value; null stays SQL NULL. */
export function toJSONColumn(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
