// What the server hands each screen of the web console (issue 32, docs/console.md): the frame every screen
// shares (console/frame-state.ts: who is signed in, what they may do, the screens they may open) and each
// screen's own state. Plain JSON only, like every page's state (state.ts joins these to PageState). Each area
// keeps its screen's state in ui/web/console/<area>-state.ts and adds it to ConsoleStates.

import type { ConsoleUsersConfirmState, ConsoleUsersState } from "./console/users-state.ts";

export * from "./console/frame-state.ts";
export * from "./console/users-state.ts";

/** Every screen's state; each joins PageState's common part in state.ts. */
export type ConsoleStates = ConsoleUsersState | ConsoleUsersConfirmState;

export type ConsolePageName = ConsoleStates["page"];
