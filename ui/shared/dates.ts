// How the UIs show the ISO dates the services answer with: to the minute in tables of events, to the day in
// tables of things. Missing dates show as null (a table prints "-"). Plain strings, no Ink: web pages use it too.

/** "2026-11-23 15:20" */
export const toMinute = (iso: string | null | undefined): string | null =>
  iso ? iso.replace("T", " ").slice(0, 16) : null;

/** "2026-11-23" */
export const toDay = (iso: string | null | undefined): string | null => (iso ? iso.slice(0, 10) : null);
