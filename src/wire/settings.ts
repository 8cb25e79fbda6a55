import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// The effective settings and the dependencies' health, as the console's settings screen shows them. A
// setting's value is always the masked one (src/config/masking.ts): a secret never reaches this shape.

export const SettingValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
export type SettingValue = z.output<typeof SettingValueSchema>;

export const SettingEntrySchema = z.object({
  /** The dotted key, as in the config file (`webhooks.timeoutMs`, `social.github.clientSecret`). */
  key: z.string(),
  value: SettingValueSchema,
  /** Masked: a secret (or a URL's password) replaced by asterisks. */
  masked: z.boolean(),
  /** The environment variable that sets it, if one does. */
  env: z.string().nullable(),
});
export type SettingEntry = z.output<typeof SettingEntrySchema>;

export const DependencyHealthSchema = z.object({
  name: z.enum(["database", "redis", "smtp", "webhookWorker"]),
  /** off: not configured (Redis, SMTP) or switched off (webhooks.enabled). */
  status: z.enum(["up", "down", "off"]),
  /** Where, without secrets: `postgres 127.0.0.1:5432/authd`, `redis localhost:6379`. */
  target: z.string().nullable(),
  /** The check's round trip. */
  latencyMs: z.number().nullable(),
  /** Why it failed, as the dependency said it. */
  error: z.string().nullable(),
  /** The webhook worker's: why it is down, when its last pass ended, deliveries overdue. */
  reason: z.enum(["not-running", "stalled", "failing"]).nullable().optional(),
  lastPassAt: IsoDateSchema.nullable().optional(),
  overdueDeliveries: z.number().optional(),
});
export type DependencyHealth = z.output<typeof DependencyHealthSchema>;
