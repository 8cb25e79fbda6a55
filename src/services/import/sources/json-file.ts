import { readFileSync } from "node:fs";
import { ImportSourceError } from "./json-lines.ts";

// Sources whose export is one JSON document (Firebase's auth:export, Keycloak's realm export): read whole,
// which their sizes allow (a realm or project export, not a stream).

export function readJSONFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ImportSourceError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportSourceError(`${path} is not JSON (expected ${what})`);
  }
}

/** The providers of other systems under the ids authd's built-in providers use. */
const PROVIDER_IDS: Record<string, string> = {
  "google.com": "google",
  "google-oauth2": "google",
  "github.com": "github",
  "facebook.com": "facebook",
  "apple.com": "apple",
  "twitter.com": "twitter",
  "microsoft.com": "microsoft",
  windowslive: "microsoft",
};

export const providerIdOf = (provider: string): string => PROVIDER_IDS[provider] ?? provider;

/** Epoch milliseconds (a number or its text) or a date text, as an ISO time; `fallback` when absent or unreadable. */
export function isoTime(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === "") return fallback;
  const number = Number(value);
  const date = Number.isFinite(number) ? new Date(number) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? fallback : date.toISOString();
}
