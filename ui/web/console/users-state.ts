import type { ConsoleFrame } from "./frame-state.ts";

// The users screen (/console/users): one page of the search's users.

export interface ConsoleUserRow {
  id: string;
  name: string;
  email: string;
  username: string | null;
  role: string | null;
  emailVerified: boolean;
  banned: boolean;
  createdAt: string;
}

export interface ConsoleUsersState {
  page: "console-users";
  console: ConsoleFrame;
  users: ConsoleUserRow[];
  total: number;
  query: { search: string; offset: number; limit: number };
}
