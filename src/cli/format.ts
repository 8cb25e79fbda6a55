// Plain-text rendering for people; --json output never passes through here.

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** Rows as aligned columns under a header line. */
export function formatTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join("\n");
}

/** An object as "key  value" lines (nested objects flattened with dots). */
export function formatFields(record: Record<string, unknown>, prefix = ""): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0)
      lines.push(...formatFields(value as Record<string, unknown>, name));
    else lines.push(`${name}: ${Array.isArray(value) ? (value.length ? value.join(", ") : "-") : cell(value)}`);
  }
  return lines;
}

export function writeLines(...lines: string[]): void {
  process.stdout.write(`${lines.join("\n")}\n`);
}
