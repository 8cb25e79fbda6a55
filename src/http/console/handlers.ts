import { API_KEYS_HANDLERS } from "./api-keys-page.ts";
import { AUDIT_HANDLERS } from "./audit-page.ts";
import { CLIENT_ACTION_HANDLERS } from "./client-actions.ts";
import { CLIENTS_HANDLERS } from "./clients-page.ts";
import { IMPERSONATION_HANDLERS } from "./impersonation-page.ts";
import { MAIL_HANDLERS } from "./mail-page.ts";
import { ORGANIZATION_ACTION_HANDLERS } from "./organization-actions.ts";
import { ORGANIZATIONS_HANDLERS } from "./organizations-page.ts";
import { OVERVIEW_HANDLERS } from "./overview-page.ts";
import { SETTINGS_HANDLERS } from "./settings-page.ts";
import { USER_ACTION_HANDLERS } from "./user-actions.ts";
import { userScreen } from "./user-page.ts";
import { BULK_HANDLERS } from "./users-bulk.ts";
import { USERS_HANDLERS } from "./users-page.ts";
import { WEBHOOK_ACTION_HANDLERS, WEBHOOK_SCREEN_HANDLERS } from "./webhook-actions.ts";

// Every console handler by name, loaded with the first console request (mount.ts names them). Each area of
// the console spreads its handlers in here.

export const CONSOLE_HANDLERS = {
  ...USERS_HANDLERS,
  ...OVERVIEW_HANDLERS,
  ...AUDIT_HANDLERS,
  showUser: userScreen.show,
  ...USER_ACTION_HANDLERS,
  ...IMPERSONATION_HANDLERS,
  ...ORGANIZATIONS_HANDLERS,
  ...ORGANIZATION_ACTION_HANDLERS,
  ...API_KEYS_HANDLERS,
  ...CLIENTS_HANDLERS,
  ...CLIENT_ACTION_HANDLERS,
  ...WEBHOOK_SCREEN_HANDLERS,
  ...WEBHOOK_ACTION_HANDLERS,
  ...SETTINGS_HANDLERS,
  ...BULK_HANDLERS,
  ...MAIL_HANDLERS,
};
