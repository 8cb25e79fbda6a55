import type { PageState } from "./state.ts";

// The pages come in three browser bundles: the front door's (sign-in and everything before it), the account
// page's and the console's. The server renders each with the same components; each page names its bundle here.

export type ConsolePageState = Extract<PageState, { page: `console-${string}` }>;
export type AccountPageState = Extract<PageState, { page: `account-${string}` | "dev-outbox" }>;
export type FrontDoorState = Exclude<PageState, AccountPageState | ConsolePageState>;

export const isConsolePage = (state: PageState): state is ConsolePageState => state.page.startsWith("console-");

export const isAccountPage = (state: PageState): state is AccountPageState =>
  state.page.startsWith("account-") || state.page === "dev-outbox";
