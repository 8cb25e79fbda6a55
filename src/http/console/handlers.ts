import { SETTINGS_HANDLERS } from "./settings-page.ts";
import { USERS_HANDLERS } from "./users-page.ts";
import { WEBHOOK_ACTION_HANDLERS, WEBHOOK_SCREEN_HANDLERS } from "./webhook-actions.ts";

// Every console handler by name, loaded with the first console request (mount.ts names them). Each area of
// the console spreads its handlers in here.

export const CONSOLE_HANDLERS = {
  ...USERS_HANDLERS,
  ...WEBHOOK_SCREEN_HANDLERS,
  ...WEBHOOK_ACTION_HANDLERS,
  ...SETTINGS_HANDLERS,
};
