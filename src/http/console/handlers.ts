import { BULK_HANDLERS } from "./users-bulk.ts";
import { USERS_HANDLERS } from "./users-page.ts";

// Every console handler by name, loaded with the first console request (mount.ts names them). Each area of
// the console spreads its handlers in here.

export const CONSOLE_HANDLERS = {
  ...USERS_HANDLERS,
  ...BULK_HANDLERS,
};
