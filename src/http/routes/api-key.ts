import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import {
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
  PREFIX_PATTERN,
  toApiKeyWire,
  updateApiKey,
} from "../../services/api-keys/api-keys.ts";
import { deleteAllExpiredApiKeys } from "../../services/api-keys/cleanup.ts";
import { type ApiKeyVerification, verifyApiKey } from "../../services/api-keys/verification.ts";
import type { EventSource } from "../../services/security-events.ts";
import { isBanned } from "../../services/users.ts";
import {
  ApiKeySchema,
  ApiKeyVerificationSchema,
  type ApiKeyVerification as ApiKeyVerificationWire,
  CreatedApiKeySchema,
} from "../../wire/api-key.ts";
import { SuccessSchema } from "../../wire/common.ts";
import { jsonValue, permissionMap, singleLine } from "../fields.ts";
import { defineRoute, type Route } from "../route.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";

const tags = ["API keys"];

const PermissionsSchema = permissionMap();

/** The owner a create/update acts for: the session's user, or (server calls only) the userId named. */
function actingUserId(session: ResolvedSession | null, isServer: boolean, userId: string | undefined): string {
  if (session) {
    if (userId !== undefined && userId !== session.user.id && !isServer) throw new AuthError("SERVER_ONLY_PROPERTY");
    return session.user.id;
  }
  if (isServer && userId) return userId;
  throw new AuthError("UNAUTHORIZED_SESSION");
}

/** Who asks: the signed-in user (a session, or a key in the header), else the server. */
function callerSource(c: Context, ctx: AuthContext, session: ResolvedSession | null): EventSource {
  return session ? requestSource(c, ctx, "user", session.user.id) : requestSource(c, ctx, "server");
}

const CreateBody = z.object({
  name: singleLine().optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  userId: singleLine().optional(),
  prefix: z
    .string()
    .regex(PREFIX_PATTERN, "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.")
    .optional(),
  remaining: z.number().int().min(0).nullable().optional(),
  metadata: jsonValue().optional(),
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
  description:
    "Server calls may name userId and set remaining, refill, rate-limit and permission fields. A user's own session needs a sign-in at most account.freshAge old (403 SESSION_IS_NOT_FRESH; authd's, not Better Auth's).",
  tags,
  auth: "optional-session",
  body: CreateBody,
  response: CreatedApiKeySchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const { userId, ...input } = body;
    // A user issuing a key from their session needs a recent sign-in; the server does not.
    const ownerSession = session && !isServer ? session.session : undefined;
    return createApiKey(
      ctx,
      { ...input, userId: actingUserId(session, isServer, userId) },
      { isServer, ownerSession },
      callerSource(c, ctx, session),
    );
  },
});

export const getApiKeyRoute = defineRoute({
  method: "GET",
  path: "/api-key/get",
  summary: "One of the caller's API keys, without its secret",
  tags,
  auth: "session",
  query: z.object({ id: singleLine() }),
  response: ApiKeySchema,
  handler: ({ ctx, query, session }) => getApiKey(ctx, session.user.id, query.id),
});

export const listApiKeysRoute = defineRoute({
  method: "GET",
  path: "/api-key/list",
  summary: "The caller's API keys, without their secrets",
  tags,
  auth: "session",
  response: z.array(ApiKeySchema),
  handler: ({ ctx, session }) => listApiKeys(ctx, session.user.id),
});

const UpdateBody = z.object({
  keyId: singleLine(),
  userId: singleLine().optional(),
  name: singleLine().optional(),
  enabled: z.boolean().optional(),
  remaining: z.number().int().min(1).optional(),
  refillAmount: z.number().int().min(1).optional(),
  refillInterval: z.number().optional(),
  metadata: jsonValue().optional(),
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
  handler: async ({ c, ctx, body, session, isServer }) => {
    const { keyId, userId, ...input } = body;
    const source = callerSource(c, ctx, isServer ? null : session);
    return updateApiKey(ctx, actingUserId(session, isServer, userId), keyId, input, { isServer, source });
  },
});

export const deleteApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/delete",
  summary: "Delete one of the caller's API keys",
  description: "Needs a sign-in at most account.freshAge old (403 SESSION_IS_NOT_FRESH; authd's, not Better Auth's).",
  tags,
  auth: "session",
  body: z.object({ keyId: singleLine() }),
  response: SuccessSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    if (isBanned(session.user, ctx.now())) throw new AuthError("USER_IS_BANNED");
    const ownerSession = isServer ? undefined : session.session;
    await deleteApiKey(ctx, session.user.id, body.keyId, callerSource(c, ctx, session), { ownerSession });
    return { success: true };
  },
});

/** A refusal as verify reports it: a value, not an error response. */
function verificationError(
  result: Extract<ApiKeyVerification, { valid: false }>,
): NonNullable<ApiKeyVerificationWire["error"]> {
  if (result.reason === "INVALID_API_KEY")
    return { message: new AuthError("INVALID_API_KEY").message, code: "KEY_NOT_FOUND" };
  const error = new AuthError(result.reason);
  return result.tryAgainIn === undefined
    ? { message: error.message, code: error.code }
    : { message: error.message, code: error.code, details: { tryAgainIn: result.tryAgainIn } };
}

export const verifyApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api-key/verify",
  summary: "Verify an API key (and optionally its permissions), counting the use",
  tags,
  serverOnly: true,
  body: z.object({ key: singleLine(), permissions: PermissionsSchema.optional() }),
  response: ApiKeyVerificationSchema,
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

export const apiKeyRoutes: Route[] = [
  createApiKeyRoute,
  getApiKeyRoute,
  listApiKeysRoute,
  updateApiKeyRoute,
  deleteApiKeyRoute,
  verifyApiKeyRoute,
  deleteAllExpiredApiKeysRoute,
];
