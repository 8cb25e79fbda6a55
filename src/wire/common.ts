import * as z from "zod";

// The wire: one zod schema per entity authd answers with. Services map rows to these shapes (their
// types are inferred from the schemas), routes name them as responses (the OpenAPI document), and the
// client derives its types from them (type imports only: the client bundle never loads zod).
// Nothing here imports anything but zod.

/** A date as the wire carries it: an ISO 8601 string (branded, so the client can type it as a Date). */
export const IsoDateSchema = z.string().brand<"IsoDate">();
export type IsoDate = z.output<typeof IsoDateSchema>;

/** Epoch milliseconds as a wire date. */
export function isoDate(ms: number): IsoDate {
  return new Date(Number(ms)).toISOString() as IsoDate;
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
