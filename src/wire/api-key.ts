import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// An API key as authd shows it: never the stored key (or its hash); the full key only once, on create.

/** Resource name → action names. */
export const PermissionsSchema = z.record(z.string(), z.array(z.string()));
export type Permissions = z.output<typeof PermissionsSchema>;

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    start: z.string().nullable(),
    prefix: z.string().nullable(),
    userId: z.string(),
    refillInterval: z.number().nullable(),
    refillAmount: z.number().nullable(),
    lastRefillAt: IsoDateSchema.nullable(),
    enabled: z.boolean(),
    rateLimitEnabled: z.boolean(),
    rateLimitTimeWindow: z.number().nullable(),
    rateLimitMax: z.number().nullable(),
    requestCount: z.number(),
    remaining: z.number().nullable(),
    lastRequest: IsoDateSchema.nullable(),
    expiresAt: IsoDateSchema.nullable(),
    createdAt: IsoDateSchema,
    updatedAt: IsoDateSchema,
    metadata: z.record(z.string(), z.unknown()).nullable(),
    permissions: PermissionsSchema.nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.output<typeof ApiKeySchema>;

/** The key as create answers it: the record plus the full key, shown this once only. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.output<typeof CreatedApiKeySchema>;

/** /api-key/verify reports a refusal as a value: its message and code (and when a rate window reopens). */
export const ApiKeyVerificationSchema = z.object({
  valid: z.boolean(),
  error: z
    .object({ message: z.string(), code: z.string(), details: z.object({ tryAgainIn: z.number() }).optional() })
    .nullable(),
  key: ApiKeySchema.nullable(),
});
export type ApiKeyVerification = z.output<typeof ApiKeyVerificationSchema>;
