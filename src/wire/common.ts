import * as z from "zod";

// The wire: one zod schema per entity authd answers with. Services map rows to these shapes (their
// types are inferred from the schemas), routes name them as responses (the OpenAPI document), and the
// client derives its types from them (type imports only: the client bundle never loads zod).
// Nothing here imports anything but zod.

/** A date as the wire carries it: an ISO 8601 string (branded, so the client can type it as a Date). */
export const IsoDateSchema = z.string().brand<"IsoDate">();
export type IsoDate = z.output<typeof IsoDateSchema>;

// The same few instants (a session's and its user's dates) are formatted on every session read: the last
// few thousand are kept (a Date and toISOString cost more than the rest of mapping a row).
const recentDates = new Map<number, IsoDate>();

/** Epoch milliseconds as a wire date. */
export function isoDate(ms: number): IsoDate {
  const instant = Number(ms);
  let text = recentDates.get(instant);
  if (text === undefined) {
    text = new Date(instant).toISOString() as IsoDate;
    if (recentDates.size >= 4096) recentDates.clear();
    recentDates.set(instant, text);
  }
  return text;
}

/** Epoch milliseconds as a wire date; null stays null. */
export function iso(ms: number | null | undefined): IsoDate | null {
  return ms === null || ms === undefined ? null : isoDate(ms);
}

export const StatusSchema = z.object({ status: z.boolean() });
export type Status = z.output<typeof StatusSchema>;

export const SuccessSchema = z.object({ success: z.boolean() });
export type Success = z.output<typeof SuccessSchema>;

export const ErrorBodySchema = z.object({ code: z.string(), message: z.string() });
