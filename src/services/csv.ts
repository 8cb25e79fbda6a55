// CSV cells as a spreadsheet opens them safely (RFC 4180 quoting, OWASP's advice on CSV injection). A cell a
// spreadsheet would run as a formula (text starting with = + - @, a tab or a carriage return) is written with
// a leading apostrophe, so a stored `=HYPERLINK(…)` stays text; a cell holding a comma, a quote or a line
// break is quoted, its quotes doubled. `authd export --format csv` and the audit log's export use it.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: formula-looking text made inert, then quoted when it must be. Null and undefined: empty. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, without its line break. */
export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(",");
}
