import type { AuthContext } from "../../context.ts";
import { csvCell } from "../csv.ts";
import { exportLines } from "./export.ts";
import type { V1User } from "./format.ts";
import { CSV_FIELDS } from "./sources/csv.ts";

// `authd export --format csv`: the users' plain fields as a spreadsheet opens them, never their secrets.
// Each cell goes through csvCell (../csv.ts): a name such as `=HYPERLINK(…)` stays text.

/** The fields `authd import csv` reads, but the password (a CSV export never holds one), and the ban. */
const COLUMNS = [...CSV_FIELDS.filter((field) => field !== "password"), "banned"] as const;

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
