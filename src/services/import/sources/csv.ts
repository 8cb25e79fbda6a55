import { createReadStream } from "node:fs";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { ImportSourceError } from "./json-lines.ts";

// A CSV file of users (RFC 4180: quoted fields may hold commas, quotes and line breaks), read as a stream.
// `--map field=column,…` says which column holds which field; without it the columns are named as the
// fields are (id, email, emailVerified, name, image, username, role, password, createdAt, updatedAt).
// Password hashes are read in the form `--hash-format` names.

export const CSV_FIELDS = [
  "id",
  "email",
  "emailVerified",
  "name",
  "image",
  "username",
  "role",
  "password",
  "createdAt",
  "updatedAt",
] as const;
type CsvField = (typeof CSV_FIELDS)[number];

/** The rows of a CSV file, each an array of cells, with the line each starts on. */
export async function* csvRows(path: string): AsyncGenerator<{ line: number; cells: string[] }> {
  const input = createReadStream(path, { encoding: "utf8" });
  await new Promise<void>((resolve, reject) => {
    input.once("open", () => resolve());
    input.once("error", (error: NodeJS.ErrnoException) =>
      reject(new ImportSourceError(`cannot read ${path}: ${error.code ?? String(error)}`)),
    );
  });
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let rowLine = 1;
  let pendingCR = false;
  const endRow = function* () {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== "") yield { line: rowLine, cells };
    cells = [];
    cell = "";
  };
  for await (const chunk of input as AsyncIterable<string>) {
    for (const char of chunk) {
      if (pendingCR && char === "\n") {
        pendingCR = false;
        continue;
      }
      pendingCR = false;
      if (quoted) {
        if (char === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (char === "\n") line += 1;
          cell += char;
        }
        continue;
      }
      if (char === '"') {
        // A quote right after a closing one is an escaped quote inside the field.
        if (afterQuote) cell += '"';
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (char === ",") {
        cells.push(cell);
        cell = "";
      } else if (char === "\n" || char === "\r") {
        pendingCR = char === "\r";
        yield* endRow();
        line += 1;
        rowLine = line;
      } else cell += char;
    }
  }
  if (quoted) throw new ImportSourceError(`${path}: a quoted field opened on line ${rowLine} never closes`);
  yield* endRow();
}

/** `email=Email Address,name=Full name` → field → column name. */
export function parseMap(map: string | undefined): Map<CsvField, string> {
  const result = new Map<CsvField, string>(CSV_FIELDS.map((field) => [field, field]));
  if (!map) return result;
  for (const pair of map.split(",")) {
    const [field, column] = pair.split("=").map((part) => part.trim());
    if (!CSV_FIELDS.includes(field as CsvField) || !column)
      throw new ImportSourceError(`--map: "${pair}" is not field=column (fields: ${CSV_FIELDS.join(", ")})`);
    result.set(field as CsvField, column);
  }
  return result;
}

const TRUE = new Set(["true", "1", "yes", "y", "t"]);

function dateOf(text: string | undefined, fallback: string): string | null {
  if (!text) return fallback;
  const number = Number(text);
  // Epoch seconds or milliseconds (Unix exports), else a date the Date parser reads.
  const date = Number.isFinite(number) ? new Date(number < 1e11 ? number * 1000 : number) : new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function recordOf(row: Record<CsvField, string | undefined>, now: string): V1UserInput | string {
  const createdAt = dateOf(row.createdAt, now);
  const updatedAt = dateOf(row.updatedAt, createdAt ?? now);
  if (createdAt === null || updatedAt === null) return "createdAt/updatedAt: not a date";
  const email = row.email?.trim() ?? "";
  return {
    id: row.id?.trim() || email.toLowerCase(),
    email,
    emailVerified: TRUE.has((row.emailVerified ?? "").trim().toLowerCase()),
    name: row.name ?? "",
    image: row.image || null,
    username: row.username || null,
    role: row.role || null,
    createdAt,
    updatedAt,
    password: row.password || null,
  };
}

export function openCsv(path: string, map: string | undefined): RecordStream {
  const columns = parseMap(map);
  const now = new Date().toISOString();
  return {
    header: { hashConfigs: {} },
    async *records(): AsyncGenerator<SourceRecord> {
      let index: Map<CsvField, number> | null = null;
      for await (const { line, cells } of csvRows(path)) {
        if (index === null) {
          index = new Map();
          for (const [field, column] of columns) {
            const at = cells.findIndex((name) => name.trim() === column);
            if (at >= 0) index.set(field, at);
          }
          if (!index.has("email"))
            throw new ImportSourceError(
              `${path}: no "${columns.get("email")}" column (say which with --map email=COLUMN)`,
            );
          continue;
        }
        const row = {} as Record<CsvField, string | undefined>;
        for (const [field, at] of index) row[field] = cells[at];
        const record = recordOf(row, now);
        yield typeof record === "string"
          ? { position: `line ${line}`, problem: record }
          : { position: `line ${line}`, record };
      }
    },
  };
}
