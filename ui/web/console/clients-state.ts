import type { ConsoleFrame } from "./frame-state.ts";

// The OpenID clients screens (/console/clients and /console/clients/:id), offered while the OpenID Provider
// is on: the registered clients with the form registering another, and one client with its forms. A secret
// is in a state only in the answer to the form that made it, never again.

export interface ConsoleClientRow {
  id: string;
  name: string;
  /** A public client (single-page or native app): PKCE, no secret. */
  isPublic: boolean;
  redirectURIs: string[];
  postLogoutRedirectURIs: string[];
  idTokenAlg: string;
  skipConsent: boolean;
  backchannelLogoutURI: string | null;
  createdAt: string;
}

/** What a client form was sent with, drawn again with its problem (URIs space-separated). */
export interface ConsoleClientFormValues {
  name: string;
  redirectURIs: string;
  postLogoutRedirectURIs: string;
  backchannelLogoutURI: string;
  skipConsent: boolean;
  isPublic: boolean;
  idTokenAlg: string;
}

export interface ConsoleClientsState {
  page: "console-clients";
  console: ConsoleFrame;
  clients: ConsoleClientRow[];
  /** The registration form's values when it is drawn again with its problem; null: empty. */
  form: ConsoleClientFormValues | null;
}

export interface ConsoleClientState {
  page: "console-client";
  console: ConsoleFrame;
  client: ConsoleClientRow;
  /** The secret the form just made (registered or rotated): shown this once. */
  secret: string | null;
  /** The change form's values when it is drawn again with its problem; null: the client's. */
  form: ConsoleClientFormValues | null;
}
