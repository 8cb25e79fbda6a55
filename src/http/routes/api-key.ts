import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { type ApiKeyVerification, verifyApiKey } from "../../services/api-key-verification.ts";
import { createApiKey, deleteAllExpiredApiKeys, deleteApiKey, getApiKey, listApiKeys, PREFIX_PATTERN, toApiKeyWire, updateApiKey } from "../../services/api-keys.ts";
import { isBanned } from "../../services/users.ts";
import { defineRoute, type RouteDefinition } from "../route.ts";
import type { ResolvedSession } from "../session.ts";
import { SuccessSchema } from "./schemas.ts";

const tags = ["API keys"];

const PermissionsSchema = z.record(z.string(), z.array(z.string()));

const ApiKeySchema = z
  .looseObject({
    id: z.string(),
    name: z.string().nullable(),
    start: z.string().nullable(),
    prefix: z.string().nullable(),
    userId: z.string(),
    enabled: z.boolean(),
    remaining: z.number().nullable(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    permissions: PermissionsSchema.nullable(),
  })
  .meta({ id: "ApiKey" });

/** The owner a create/update acts for: the session's user, or (server calls only) the userId named. */
function actingUserId(session: ResolvedSession | null, isServer: boolean, userId: string | undefined): string {
  if (session) {
    if (userId !== undefined && userId !== session.user.id && !isServer) throw new AuthError("SERVER_ONLY_PROPERTY");
    return session.user.id;
  }
  if (isServer && userId) return userId;
  throw new AuthError("UNAUTHORIZED_SESSION");
}

const CreateBody = z.object({
  name: z.string().optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  userId: z.string().optional(),
  prefix: z.string().regex(PREFIX_PATTERN, "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.").optional(),
  remaining: z.number().int().min(0).nullable().optional(),
  metadata: z.unknown().optional(),
  refillAmount: z.number().int().min(1).optional(),
  refillInterval: z.number().optional(),
  rateLimitTimeWindow: z.number().optional(),
  rateLimitMax: z.number().optional(),
  rateLimitEnabled: z.boolean().optional(),
  permissions: PermissionsSchema.optional(),
});

export const createApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/create",
  summary: "Create an API key; the full key is in this answer only",
  description: "Server calls may name userId and set remaining, refill, rate-limit and permission fields.",
  tags,
  auth: "optional-session",
  body: CreateBody,
  response: ApiKeySchema.extend({ key: z.string() }),
  handler: async ({ ctx, body, session, isServer }) => {
    const { userId, ...input } = body;
    return createApiKey(ctx, { ...input, userId: actingUserId(session, isServer, userId) }, { isServer });
  },
});

export const getApiKeyRoute = defineRoute({
  method: "GET",
  path: "/api-key/get",
  summary: "One of the caller's API keys, without its secret",
  tags,
  auth: "session",
  query: z.object({ id: z.string() }),
  response: ApiKeySchema,
  handler: ({ ctx, query, session }) => getApiKey(ctx, session!.user.id, query.id),
});

export const listApiKeysRoute = defineRoute({
  method: "GET",
  path: "/api-key/list",
  summary: "The caller's API keys, without their secrets",
  tags,
  auth: "session",
  response: z.array(ApiKeySchema),
  handler: ({ ctx, session }) => listApiKeys(ctx, session!.user.id),
});

const UpdateBody = z.object({
  keyId: z.string(),
  userId: z.string().optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  remaining: z.number().int().min(1).optional(),
  refillAmount: z.number().int().min(1).optional(),
  refillInterval: z.number().optional(),
  metadata: z.unknown().optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  rateLimitEnabled: z.boolean().optional(),
  rateLimitTimeWindow: z.number().optional(),
  rateLimitMax: z.number().optional(),
  permissions: PermissionsSchema.nullable().optional(),
});

export const updateApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/update",
  summary: "Change one of the caller's API keys",
  description: "Server calls may name userId and change remaining, refill, rate-limit and permission fields.",
  tags,
  auth: "optional-session",
  body: UpdateBody,
  response: ApiKeySchema,
  handler: async ({ ctx, body, session, isServer }) => {
    const { keyId, userId, ...input } = body;
    return updateApiKey(ctx, actingUserId(session, isServer, userId), keyId, input, { isServer });
  },
});

export const deleteApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/delete",
  summary: "Delete one of the caller's API keys",
  tags,
  auth: "session",
  body: z.object({ keyId: z.string() }),
  response: SuccessSchema,
  handler: async ({ ctx, body, session }) => {
    if (isBanned(session!.user, ctx.now())) throw new AuthError("USER_IS_BANNED", { status: 401 });
    await deleteApiKey(ctx, session!.user.id, body.keyId);
    return { success: true };
  },
});

/** A refusal as verify reports it: a value, not an error response. */
function verificationError(result: Extract<ApiKeyVerification, { valid: false }>): Record<string, unknown> {
  if (result.reason === "INVALID_API_KEY") return { message: new AuthError("INVALID_API_KEY").message, code: "KEY_NOT_FOUND" };
  const error = new AuthError(result.reason);
  return result.tryAgainIn === undefined ? { message: error.message, code: error.code } : { message: error.message, code: error.code, details: { tryAgainIn: result.tryAgainIn } };
}

export const verifyApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/verify",
  summary: "Verify an API key (and optionally its permissions), counting the use",
  tags,
  serverOnly: true,
  body: z.object({ key: z.string(), permissions: PermissionsSchema.optional() }),
  response: z.object({ valid: z.boolean(), error: z.object({ message: z.string(), code: z.string() }).nullable(), key: ApiKeySchema.nullable() }),
  handler: async ({ ctx, body }) => {
    const result = await verifyApiKey(ctx, body.key, body.permissions);
    if (!result.valid) return { valid: false, error: verificationError(result), key: null };
    return { valid: true, error: null, key: toApiKeyWire(result.row) };
  },
});

export const deleteAllExpiredApiKeysRoute = defineRoute({
  method: "POST",
  path: "/api-key/delete-all-expired-api-keys",
  summary: "Delete every expired API key now",
  tags,
  serverOnly: true,
  response: z.object({ success: z.boolean(), error: z.unknown() }),
  handler: async ({ ctx }) => {
    try {
      await deleteAllExpiredApiKeys(ctx);
      return { success: true, error: null };
    } catch (error) {
      ctx.logger.error("failed to delete expired API keys", { error });
      return { success: false, error: { message: "Failed to delete expired API keys" } };
    }
  },
});

export const apiKeyRoutes: RouteDefinition[] = [
  createApiKeyRoute,
  getApiKeyRoute,
  listApiKeysRoute,
  updateApiKeyRoute,
  deleteApiKeyRoute,
  verifyApiKeyRoute,
  deleteAllExpiredApiKeysRoute,
];
