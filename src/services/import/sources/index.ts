import type { RecordStream } from "../run.ts";
import { openBetterAuth } from "./better-auth.ts";
import { openCsv } from "./csv.ts";
import { ImportSourceError, openAuthdFile } from "./json-lines.ts";

// The sources `authd import <source>` reads (docs/import.md says what each carries over).

export const IMPORT_SOURCES = ["authd", "better-auth", "csv"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface SourceOptions {
  /** csv: `--map` (column=field pairs). */
  map?: string;
  /** better-auth: the app's BETTER_AUTH_SECRET, which opens its TOTP secrets and backup codes. */
  betterAuthSecret?: string | null;
}

export async function openSource(source: ImportSource, files: string[], options: SourceOptions): Promise<RecordStream> {
  switch (source) {
    case "authd":
      if (files.length !== 1)
        throw new ImportSourceError("authd import authd takes one file (what authd export wrote)");
      return openAuthdFile(files[0]);
    case "better-auth":
      if (files.length !== 1) throw new ImportSourceError("better-auth takes one SQLite file or postgres:// URL");
      return openBetterAuth(files[0], options.betterAuthSecret ?? null);
    case "csv":
      if (files.length !== 1) throw new ImportSourceError("csv takes one file");
      return openCsv(files[0], options.map);
  }
}

export { ImportSourceError };
