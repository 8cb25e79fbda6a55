// What the server hands each screen of the web console (issue 32, docs/console.md): the frame every screen
// shares (console/frame-state.ts: who is signed in, what they may do, the screens they may open) and each
// screen's own state. Plain JSON only, like every page's state (state.ts joins these to PageState). Each area
// keeps its screen's state in ui/web/console/<area>-state.ts and adds it to ConsoleStates.

import type { ConsoleApiKeysState } from "./console/api-keys-state.ts";
import type { ConsoleAuditEventState, ConsoleAuditState } from "./console/audit-state.ts";
import type { ConsoleClientState, ConsoleClientsState } from "./console/clients-state.ts";
import type { ConsoleMailState } from "./console/mail-state.ts";
import type { ConsoleOrganizationState, ConsoleOrganizationsState } from "./console/organizations-state.ts";
import type { ConsoleOverviewState } from "./console/overview-state.ts";
import type { ConsoleSettingsState } from "./console/settings-state.ts";
import type { ConsoleUserState } from "./console/user-state.ts";
import type { ConsoleUsersConfirmState, ConsoleUsersState } from "./console/users-state.ts";
import type { ConsoleWebhookState, ConsoleWebhooksState } from "./console/webhooks-state.ts";

export type * from "./console/api-keys-state.ts";
export * from "./console/audit-state.ts";
export type * from "./console/clients-state.ts";
export * from "./console/frame-state.ts";
export type * from "./console/mail-state.ts";
export type * from "./console/organizations-state.ts";
export * from "./console/overview-state.ts";
export type * from "./console/settings-state.ts";
export type * from "./console/user-state.ts";
export * from "./console/users-state.ts";
export type * from "./console/webhooks-state.ts";

/** Every screen's state; each joins PageState's common part in state.ts. */
export type ConsoleStates =
  | ConsoleUsersState
  | ConsoleOverviewState
  | ConsoleAuditState
  | ConsoleAuditEventState
  | ConsoleUserState
  | ConsoleOrganizationsState
  | ConsoleOrganizationState
  | ConsoleApiKeysState
  | ConsoleClientsState
  | ConsoleClientState
  | ConsoleWebhooksState
  | ConsoleWebhookState
  | ConsoleSettingsState
  | ConsoleUsersConfirmState
  | ConsoleMailState;

export type ConsolePageName = ConsoleStates["page"];
