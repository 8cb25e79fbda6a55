import { Box, Text } from "ink";

export interface TableColumn<T> {
  header: string;
  /** The most characters the column takes; each column is otherwise as wide as its content. */
  width?: number;
  value: (row: T) => string | number | boolean | null | undefined;
  color?: (row: T) => string | undefined;
}

export interface TableProps<T> {
  columns: TableColumn<T>[];
  rows: T[];
  width: number;
  /** Index of the highlighted row, if the table has a cursor. */
  selected?: number;
  emptyText?: string;
  rowKey: (row: T) => string;
}

export function fitCell(text: string, width: number): string {
  if (width <= 0) return "";
  if (text.length <= width) return text.padEnd(width);
  return width === 1 ? "…" : `${text.slice(0, width - 1)}…`;
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/**
 * Column widths sized to their content (`natural`: the longest of header and cells), within `width`. When the
 * content does not fit, the widest columns give way first, down to a common width, so short columns (dates,
 * flags) stay whole and long ones (user agents, emails) are cut. A column's `width` caps it.
 */
export function columnWidths(columns: { width?: number }[], width: number, natural: number[]): number[] {
  const gaps = Math.max(0, columns.length - 1);
  const room = Math.max(0, width - 2 - gaps);
  const wanted = columns.map((c, i) => Math.max(1, Math.min(natural[i] ?? 1, c.width ?? Number.POSITIVE_INFINITY)));
  const total = wanted.reduce((sum, w) => sum + w, 0);
  if (total <= room) return wanted;
  // The largest common cap that fits, then what is left over goes to the capped columns one by one.
  let cap = Math.max(...wanted);
  const sumAt = (limit: number) => wanted.reduce((sum, w) => sum + Math.min(w, limit), 0);
  while (cap > 1 && sumAt(cap) > room) cap -= 1;
  const widths = wanted.map((w) => Math.min(w, cap));
  let spare = room - widths.reduce((sum, w) => sum + w, 0);
  for (let i = 0; i < widths.length && spare > 0; i += 1) {
    if (wanted[i] > widths[i]) {
      widths[i] += 1;
      spare -= 1;
    }
  }
  return widths;
}

/** A list with a header line; the cursor row is inverted. Cells never wrap: they are cut to fit. */
export function Table<T>({ columns, rows, width, selected, emptyText = "nothing to show", rowKey }: TableProps<T>) {
  const natural = columns.map((column) =>
    Math.max(column.header.length, ...rows.map((row) => show(column.value(row)).length)),
  );
  const widths = columnWidths(columns, width, natural);
  const line = (cells: string[]) => cells.map((cell, i) => fitCell(cell, widths[i])).join(" ");
  return (
    <Box flexDirection="column">
      <Text bold>{`  ${line(columns.map((c) => c.header.toUpperCase()))}`}</Text>
      {rows.length === 0 ? <Text dimColor>{`  ${emptyText}`}</Text> : null}
      {rows.map((row, index) => {
        const isSelected = index === selected;
        return (
          <Box key={rowKey(row)}>
            <Text inverse={isSelected}>{isSelected ? "› " : "  "}</Text>
            {columns.map((column, i) => (
              <Text key={column.header} inverse={isSelected} color={column.color?.(row)}>
                {fitCell(show(column.value(row)), widths[i]) + (i < columns.length - 1 ? " " : "")}
              </Text>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
