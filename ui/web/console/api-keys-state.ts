import type { ConsoleFrame } from "./frame-state.ts";

// The API keys screen (/console/api-keys): keys of every user, a page of the search's and filters' at a
// time. Never the key itself: its first characters at most.

export interface ConsoleApiKeyRow {
  id: string;
  name: string | null;
  /** The key's first characters (and its prefix), as the owner saw them. */
  start: string | null;
  prefix: string | null;
  userId: string;
  userEmail: string;
  enabled: boolean;
  expired: boolean;
  /** The owner's ban is in force: the key is refused whatever it says. */
  ownerBanned: boolean;
  expiresAt: string | null;
  lastRequest: string | null;
  createdAt: string;
}

/** A filter's choice: "" any, "yes" or "no". */
export type YesNoAny = "" | "yes" | "no";

export interface ConsoleApiKeysQuery {
  search: string;
  enabled: YesNoAny;
  expired: YesNoAny;
  offset: number;
  limit: number;
}

export interface ConsoleApiKeysState {
  page: "console-api-keys";
  console: ConsoleFrame;
  keys: ConsoleApiKeyRow[];
  total: number;
  query: ConsoleApiKeysQuery;
}
