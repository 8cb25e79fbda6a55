// The part of every console screen's state that is the same on each (console-state.ts joins the screens):
// the navigation, who is signed in and what they may do, and the console's URLs.

/** The console's screens in the order of its navigation. */
export const CONSOLE_SCREENS = [
  "overview",
  "users",
  "organizations",
  "api-keys",
  "audit",
  "webhooks",
  "clients",
  "settings",
  "mail",
] as const;
export type ConsoleScreen = (typeof CONSOLE_SCREENS)[number];

/** Where the console is served. */
export const CONSOLE_PATH = "/console";

export interface ConsoleFrame {
  /** The screen of the navigation this one belongs to (a user's detail: users); it titles the document. */
  screen: ConsoleScreen;
  /** The signed-in admin. */
  admin: { id: string; name: string; email: string };
  /** The screens this deployment offers and this admin may open, in navigation order. */
  screens: ConsoleScreen[];
  /** The admin permissions held: resource → actions (a screen hides what the admin may not do). */
  may: Record<string, string[]>;
  /** What was just done: a console.notice.* key, shown once. */
  notice: string | null;
}

/** Whether the admin holds `action` on `resource` (the frame's permissions). */
export const mayDo = (frame: ConsoleFrame, resource: string, action: string): boolean =>
  frame.may[resource]?.includes(action) === true;

/** A console screen's URL: `/console/users?search=x`. */
export function consoleHref(path: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== "") query.set(name, String(value));
  const search = query.toString();
  return `${CONSOLE_PATH}${path}${search ? `?${search}` : ""}`;
}
