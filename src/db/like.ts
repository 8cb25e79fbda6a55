import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";

// Matching a caller's text with LIKE. The text is escaped so that % and _ (and the escape character
// itself) match themselves: otherwise "%" would list everything and "_" any one character. Both sides
// are lower-cased, so the match ignores case the same way on SQLite and Postgres.

export type LikePosition = "contains" | "starts_with" | "ends_with";

/** A LIKE pattern (for ESCAPE '\') matching `text`, lower-cased, anywhere, at the start or at the end. */
export function literalLikePattern(text: string, position: LikePosition = "contains"): string {
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  if (position === "starts_with") return `${escaped}%`;
  if (position === "ends_with") return `%${escaped}`;
  return `%${escaped}%`;
}

/** `column` holds `text` literally, ignoring case. Any column type: numbers are compared as their text. */
export function columnMatches(
  column: string | Expression<unknown>,
  text: string,
  position: LikePosition = "contains",
): RawBuilder<SqlBool> {
  const ref = typeof column === "string" ? sql.ref(column) : column;
  return sql<SqlBool>`lower(cast(${ref} as text)) like ${literalLikePattern(text, position)} escape '\\'`;
}

/** True where any of the columns holds `text` literally, ignoring case (the same SQL on SQLite and Postgres). */
export function anyColumnMatches(
  columns: readonly string[],
  text: string,
  position: LikePosition = "contains",
): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => columnMatches(column, text, position)),
    sql` or `,
  )})`;
}
