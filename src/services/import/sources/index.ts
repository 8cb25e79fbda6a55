import type { RecordStream } from "../run.ts";
import { openAuth0 } from "./auth0.ts";
import { openBetterAuth } from "./better-auth.ts";
import { openClerk } from "./clerk.ts";
import { openCsv } from "./csv.ts";
import { openFirebase } from "./firebase.ts";
import { ImportSourceError, openAuthdFile } from "./json-lines.ts";
import { openKeycloak } from "./keycloak.ts";
import { openSupabase } from "./supabase.ts";

// The sources `authd import <source>` reads (docs/import.md says what each carries over).

export const IMPORT_SOURCES = [
  "authd",
  "better-auth",
  "csv",
  "auth0",
  "firebase",
  "keycloak",
  "supabase",
  "clerk",
] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface SourceOptions {
  /** csv: `--map` (column=field pairs). */
  map?: string;
  /** firebase: the project's password hash parameters (JSON). */
  hashConfig?: string;
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
    case "auth0":
      if (files.length < 1 || files.length > 2)
        throw new ImportSourceError("auth0 takes the user export (NDJSON) and, for passwords, the hash export");
      return openAuth0(files[0], files[1]);
    case "firebase":
      if (files.length !== 1) throw new ImportSourceError("firebase takes one file (auth:export --format=json)");
      return openFirebase(files[0], options.hashConfig);
    case "keycloak":
      if (files.length !== 1) throw new ImportSourceError("keycloak takes one realm export file");
      return openKeycloak(files[0]);
    case "supabase":
      if (files.length < 1 || files.length > 2)
        throw new ImportSourceError(
          "supabase takes a postgres:// URL of the project, or CSV files of auth.users and (optional) auth.identities",
        );
      return openSupabase(files);
    case "clerk":
      if (files.length !== 1) throw new ImportSourceError("clerk takes one file (the dashboard's user export CSV)");
      return openClerk(files[0]);
  }
}

export { ImportSourceError };
