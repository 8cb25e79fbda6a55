import { type AuthClient, createAuthClient } from "../../src/client/index.ts";
import { type FormProblem, problemFor, RATE_LIMITED_CODE } from "./state.ts";

// The browser's way to the daemon once a page is hydrated: the published client over HTTP, like any app
// (ui/web/README.md). Same origin, so the session cookies are the pages' own.

let client: AuthClient | undefined;

export function apiClient(apiPath: string): AuthClient {
  client ??= createAuthClient({ baseURL: window.location.origin, basePath: apiPath });
  return client;
}

export function problemOf(code: string | undefined, status?: number): FormProblem {
  const known = code ?? (status === 429 ? RATE_LIMITED_CODE : status === 503 ? "SERVICE_UNAVAILABLE" : "unknown");
  return problemFor(known);
}

/** Leave the page for `url` (a full navigation: the next page is the server's). */
export function go(url: string): null {
  window.location.assign(url);
  return null;
}

/**
 * The API refused a sensitive change because the sign-in is older than account.freshAge: through the
 * re-authentication page, which comes back to `back` (a path of the account page). Returns whether it went.
 */
export function reauthenticateIfStale(code: string | undefined, pages: string, back: string): boolean {
  // The catalogue's SESSION_NOT_FRESH, as the API spells its code (derived from the message).
  if (code !== "SESSION_IS_NOT_FRESH") return false;
  go(`${pages}/reauthenticate?${new URLSearchParams({ redirect: back })}`);
  return true;
}
