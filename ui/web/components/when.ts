import { toMinute } from "../../shared/dates.ts";

// A date on the account page, as every visitor's clock reads it alike: the server's drawing and the
// browser's must match, so no local time zone ("2026-11-27 17:30 UTC").

export const when = (iso: string): string => `${toMinute(iso)} UTC`;
