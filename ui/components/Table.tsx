import { Box, Text } from "ink";

export interface TableColumn<T> {
  header: string;
  /** Fixed width in characters; columns without one share what is left. */
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

/** Column widths that fill `width`: fixed ones as asked (shrunk if the terminal is narrow), the rest shared. */
export function columnWidths(columns: { width?: number }[], width: number): number[] {
  const gaps = Math.max(0, columns.length - 1);
  const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const flexible = columns.filter((c) => c.width === undefined).length;
  const room = Math.max(0, width - 2 - gaps - fixed);
  if (room === 0 && fixed > 0) {
    const scale = Math.max(0, width - 2 - gaps) / fixed;
    return columns.map((c) => Math.floor((c.width ?? 0) * scale));
  }
  return columns.map((c) => c.width ?? Math.floor(room / Math.max(1, flexible)));
}

/** A list with a header line; the cursor row is inverted. Cells never wrap: they are cut to fit. */
export function Table<T>({ columns, rows, width, selected, emptyText = "nothing to show", rowKey }: TableProps<T>) {
  const widths = columnWidths(columns, width);
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
