import * as z from "zod";
import { parseDuration } from "../durations.ts";

// The audit log's and webhooks' configuration (issue 21), a part of the configuration schema (schema.ts).

const HOUR_MS = 3_600_000;

const webhookEndpointSchema = () =>
  z
    .object({
      id: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and -")
        .describe("a stable name for the endpoint (its deliveries are kept under it)"),
      url: z.url().describe("where events are POSTed (http or https)"),
      events: z.array(z.string().min(1)).min(1).describe('event types delivered ("*" for all)'),
      secret: z
        .string()
        .regex(/^whsec_[A-Za-z0-9+/=]{24,}$/, "whsec_ followed by base64 (at least 18 bytes)")
        .describe("the Standard Webhooks signing secret"),
    })
    .strict();

export const auditConfigSchema = () =>
  z
    .object({
      retentionDays: z.number().int().min(1).default(90).describe("days an audit event is kept before pruning"),
      pruneIntervalMs: z.number().int().min(1000).default(HOUR_MS).describe("how often the daemon prunes the log"),
    })
    .prefault({});

export const webhooksConfigSchema = () =>
  z
    .object({
      enabled: z.boolean().default(true).describe("run the delivery worker in the daemon"),
      endpoints: z.array(webhookEndpointSchema()).default([]).describe("endpoints kept in the config file"),
      allowedPrivateDestinations: z
        .array(z.string())
        .default([])
        .describe("private, loopback or link-local addresses/CIDR ranges webhooks may be sent to (none by default)"),
      timeoutMs: z.number().int().min(100).default(10_000).describe("time allowed for one delivery attempt"),
      retryBaseMs: z.number().int().min(1).default(5_000).describe("wait before the first retry; doubles each time"),
      retryMaxMs: z.number().int().min(1).default(HOUR_MS).describe("longest wait between two attempts"),
      retryWindowMs: z
        .number()
        .int()
        .min(1)
        .default(25 * HOUR_MS)
        .describe("how long a delivery keeps being retried (at least 24 hours by default)"),
      pollIntervalMs: z.number().int().min(10).default(1_000).describe("how often the worker looks for work"),
      leaseMs: z
        .number()
        .int()
        .min(1_000)
        .default(60_000)
        .describe("how long a daemon holds a claimed delivery (longer than timeoutMs)"),
      logRetention: z
        .string()
        .refine((text) => parseDuration(text, "d") !== null, "a duration: 7d, 12h, 90m (a bare number is days)")
        .default("7d")
        .describe("how long the delivery log keeps each request sent (7d, 12h; a bare number is days)"),
    })
    .prefault({});

/** webhooks.logRetention in milliseconds (the schema has checked it reads). */
export function webhookLogRetentionMs(config: { webhooks: { logRetention: string } }): number {
  return parseDuration(config.webhooks.logRetention, "d") ?? 7 * 24 * HOUR_MS;
}
