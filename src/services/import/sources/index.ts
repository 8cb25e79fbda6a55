import type { RecordStream } from "../run.ts";
import { ImportSourceError, openAuthdFile } from "./json-lines.ts";

// The sources `authd import <source>` reads (docs/import.md says what each carries over).

export const IMPORT_SOURCES = ["authd"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface SourceOptions {
  /** csv: `--map` (column=field pairs). */
  map?: string;
}

export async function openSource(
  source: ImportSource,
  files: string[],
  _options: SourceOptions,
): Promise<RecordStream> {
  switch (source) {
    case "authd":
      if (files.length !== 1)
        throw new ImportSourceError("authd import authd takes one file (what authd export wrote)");
      return openAuthdFile(files[0]);
  }
}

export { ImportSourceError };
