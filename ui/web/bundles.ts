import type { PageState } from "./state.ts";

// The pages come in two browser bundles: the front door's (sign-in and everything before it) and the
// account page's. The server renders either with the same components; each page names its bundle here.

export type AccountPageState = Extract<PageState, { page: `account-${string}` | "dev-outbox" }>;
export type FrontDoorState = Exclude<PageState, AccountPageState>;

export const isAccountPage = (state: PageState): state is AccountPageState =>
  state.page.startsWith("account-") || state.page === "dev-outbox";
