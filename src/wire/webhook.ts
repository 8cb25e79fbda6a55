import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// Webhook endpoints and their delivery log as the admin API, the command line and the console show them
// (docs/events.md). Never a signing secret: it is shown once, when an endpoint is made or its secret rotated.

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  origin: z.enum(["cli", "config"]).describe("config: kept in the config file, changed there (read-only here)"),
  createdAt: IsoDateSchema,
  deliveries: z.object({ pending: z.number(), delivered: z.number(), failed: z.number() }),
  lastAttempt: z.object({ at: IsoDateSchema, status: z.number().nullable(), error: z.string().nullable() }).nullable(),
  disabled: z.boolean().describe("paused: no deliveries are made or sent until enabled"),
  previousSecretExpiresAt: IsoDateSchema.nullable().describe(
    "after a rotation, the old secret signs beside the new one until then",
  ),
});
export type WebhookEndpointWire = z.output<typeof WebhookEndpointSchema>;

/** An endpoint just made or rotated, with the secret receivers verify signatures with (shown this once). */
export const WebhookEndpointWithSecretSchema = z.object({
  endpoint: WebhookEndpointSchema,
  secret: z.string(),
});
export type WebhookEndpointWithSecretWire = z.output<typeof WebhookEndpointWithSecretSchema>;

/** One request sent to an endpoint: an entry of the delivery log. */
export const WebhookAttemptSchema = z.object({
  id: z.string().describe("what resend takes"),
  endpointId: z.string(),
  eventId: z.string().nullable().describe("the audit event sent, also the webhook-id; null for a test message"),
  eventType: z.string(),
  trigger: z.enum(["delivery", "resend", "test"]),
  requestBytes: z.number().describe("the size of the body sent"),
  attemptedAt: IsoDateSchema,
  durationMs: z.number(),
  ok: z.boolean().describe("the receiver answered 2xx"),
  status: z.number().nullable().describe("the answer's HTTP status; null when none came"),
  error: z.string().nullable(),
});
export type WebhookAttemptWire = z.output<typeof WebhookAttemptSchema>;

export const WebhookAttemptPageSchema = z.object({ attempts: z.array(WebhookAttemptSchema), total: z.number() });
