import type { AuthContext } from "../../context.ts";
import { exportLines } from "./export.ts";
import type { V1User } from "./format.ts";
import { CSV_FIELDS } from "./sources/csv.ts";

// `authd export --format csv`: the users' plain fields as a spreadsheet opens them, never their secrets.
// A cell a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is
// written with a leading apostrophe, so a name such as `=HYPERLINK(…)` stays text (OWASP's CSV injection advice).

/** The fields `authd import csv` reads, but the password (a CSV export never holds one), and the ban. */
const COLUMNS = [...CSV_FIELDS.filter((field) => field !== "password"), "banned"] as const;

/** One CSV cell: formula-looking text made inert, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function* exportCsvLines(ctx: AuthContext): AsyncGenerator<string> {
  yield COLUMNS.join(",");
  let header = true;
  for await (const line of exportLines(ctx, { includeSecrets: false })) {
    if (header) {
      header = false;
      continue;
    }
    const user = JSON.parse(line) as V1User;
    yield COLUMNS.map((column) => csvCell(user[column])).join(",");
  }
}
