import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission } from "../../../services/admin.ts";
import type { EventSource } from "../../../services/security-events.ts";
import {
  listWebhookAttempts,
  resendWebhookAttempt,
  testWebhookEndpoint,
} from "../../../services/webhooks/delivery-log.ts";
import {
  createWebhookEndpoint,
  MAX_ROTATION_GRACE_MS,
  rotateWebhookSecret,
  setWebhookEndpointDisabled,
  updateWebhookEndpoint,
} from "../../../services/webhooks/manage.ts";
import { listWebhookEndpoints, removeWebhookEndpoint } from "../../../services/webhooks/webhooks.ts";
import { SuccessSchema } from "../../../wire/common.ts";
import {
  WebhookAttemptPageSchema,
  WebhookAttemptSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from "../../../wire/webhook.ts";
import { singleLine } from "../../fields.ts";
import { defineRoute, queryBoolean, type Route, type RouteInput } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";
import type { ResolvedSession } from "../../session.ts";

// authd's own admin routes for webhook endpoints and their delivery log (docs/events.md): the server token,
// or a user holding the webhook permission each names (list, manage, resend; every admin role holds them, a
// narrower admin.roles role only what it lists). The console does the same through ui/data.ts.

const tags = ["Webhooks"];
const IdBody = z.object({ id: singleLine().min(1).describe("the endpoint's id") });
const EndpointAnswer = z.object({ endpoint: WebhookEndpointSchema });
const Events = z.array(singleLine().min(1)).describe('event types (docs/events.md), or ["*"] for all');

type Caller = Pick<RouteInput<unknown, unknown, ResolvedSession | null>, "c" | "ctx" | "session" | "isServer">;

/** The caller's right to `action` on webhooks, then where the request came from (for the change's event). */
function permitted(input: Caller, action: "list" | "manage" | "resend"): EventSource {
  const actor = actorFor(input.isServer, input.session?.user);
  assertAdminPermission(input.ctx, actor, { webhook: [action] });
  return adminRequestSource(input.c, input.ctx, actor);
}

export const adminListWebhooks = defineRoute({
  method: "GET",
  path: "/admin/webhooks",
  summary: "Webhook endpoints with their delivery counts and last attempt (admin or server; authd's own)",
  description: "Requires webhook:list. Never a signing secret.",
  tags,
  auth: "session-or-server",
  response: z.object({ endpoints: z.array(WebhookEndpointSchema) }),
  handler: async (input) => {
    permitted(input, "list");
    return { endpoints: await listWebhookEndpoints(input.ctx) };
  },
});

export const adminWebhookDeliveries = defineRoute({
  method: "GET",
  path: "/admin/webhooks/deliveries",
  summary: "An endpoint's delivery log, newest first (admin or server; authd's own)",
  description: "Requires webhook:list. failed=true keeps the requests that got no 2xx. Defaults: limit 50.",
  tags,
  auth: "session-or-server",
  query: z.object({
    endpointId: singleLine().min(1),
    failed: queryBoolean.optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  }),
  response: WebhookAttemptPageSchema,
  handler: async (input) => {
    permitted(input, "list");
    const { endpointId, failed, limit, offset } = input.query;
    const page = await listWebhookAttempts(
      input.ctx,
      endpointId,
      { failedOnly: failed },
      { limit: limit ?? 50, offset: offset ?? 0 },
    );
    return { attempts: page.items, total: page.total };
  },
});

export const adminCreateWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/create",
  summary: "Register a webhook endpoint; answers its signing secret once (admin or server; authd's own)",
  description:
    "Requires webhook:manage. The URL must pass the destination rules (webhooks.allowedPrivateDestinations).",
  tags,
  auth: "session-or-server",
  body: z.object({ url: singleLine().min(1), events: Events }),
  response: WebhookEndpointWithSecretSchema,
  handler: async (input) => {
    const source = permitted(input, "manage");
    return createWebhookEndpoint(input.ctx, input.body, source);
  },
});

export const adminUpdateWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/update",
  summary: "Change a webhook endpoint's URL or event types (admin or server; authd's own)",
  description: "Requires webhook:manage. An endpoint kept in the config file is changed there.",
  tags,
  auth: "session-or-server",
  body: IdBody.extend({ url: singleLine().min(1).optional(), events: Events.optional() }),
  response: EndpointAnswer,
  handler: async (input) => {
    const source = permitted(input, "manage");
    const { id, url, events } = input.body;
    return { endpoint: await updateWebhookEndpoint(input.ctx, id, { url, events }, source) };
  },
});

export const adminDisableWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/disable",
  summary: "Pause a webhook endpoint: no deliveries until it is enabled (admin or server; authd's own)",
  description: "Requires webhook:manage.",
  tags,
  auth: "session-or-server",
  body: IdBody,
  response: EndpointAnswer,
  handler: async (input) => {
    const source = permitted(input, "manage");
    return { endpoint: await setWebhookEndpointDisabled(input.ctx, input.body.id, true, source) };
  },
});

export const adminEnableWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/enable",
  summary: "Resume a paused webhook endpoint (admin or server; authd's own)",
  description: "Requires webhook:manage.",
  tags,
  auth: "session-or-server",
  body: IdBody,
  response: EndpointAnswer,
  handler: async (input) => {
    const source = permitted(input, "manage");
    return { endpoint: await setWebhookEndpointDisabled(input.ctx, input.body.id, false, source) };
  },
});

export const adminRotateWebhookSecret = defineRoute({
  method: "POST",
  path: "/admin/webhooks/rotate-secret",
  summary: "A new signing secret for an endpoint, answered once (admin or server; authd's own)",
  description:
    "Requires webhook:manage. The old secret signs beside the new one for graceSeconds (default 86400, 0: not at all, at most 30 days).",
  tags,
  auth: "session-or-server",
  body: IdBody.extend({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_MS / 1000)
      .optional(),
  }),
  response: WebhookEndpointWithSecretSchema,
  handler: async (input) => {
    const source = permitted(input, "manage");
    const { id, graceSeconds } = input.body;
    const graceMs = graceSeconds === undefined ? undefined : graceSeconds * 1000;
    return rotateWebhookSecret(input.ctx, id, graceMs, source);
  },
});

export const adminTestWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/test",
  summary: "Send a signed webhook.test message to an endpoint now (admin or server; authd's own)",
  description: "Requires webhook:manage. Answers the delivery log's entry; ok is false when the receiver gave no 2xx.",
  tags,
  auth: "session-or-server",
  body: IdBody,
  response: z.object({ attempt: WebhookAttemptSchema }),
  handler: async (input) => {
    permitted(input, "manage");
    return { attempt: await testWebhookEndpoint(input.ctx, input.body.id) };
  },
});

export const adminRemoveWebhook = defineRoute({
  method: "POST",
  path: "/admin/webhooks/remove",
  summary: "Remove a webhook endpoint with its deliveries and log (admin or server; authd's own)",
  description: "Requires webhook:manage. An endpoint kept in the config file is removed there.",
  tags,
  auth: "session-or-server",
  body: IdBody,
  response: SuccessSchema,
  handler: async (input) => {
    const source = permitted(input, "manage");
    if (!(await removeWebhookEndpoint(input.ctx, input.body.id, source)))
      throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
    return { success: true };
  },
});

export const adminResendWebhookDelivery = defineRoute({
  method: "POST",
  path: "/admin/webhooks/resend",
  summary: "Send a logged delivery again now (admin or server; authd's own)",
  description:
    "Requires webhook:resend. The same event under the same webhook-id, to the endpoint's URL as it is now; answers the new log entry.",
  tags,
  auth: "session-or-server",
  body: z.object({ deliveryId: singleLine().min(1).describe("an id from the delivery log") }),
  response: z.object({ attempt: WebhookAttemptSchema }),
  handler: async (input) => {
    permitted(input, "resend");
    return { attempt: await resendWebhookAttempt(input.ctx, input.body.deliveryId) };
  },
});

/** Mounted with the admin capability (routes/index.ts). */
export const adminWebhookRoutes: Route[] = [
  adminListWebhooks,
  adminWebhookDeliveries,
  adminCreateWebhook,
  adminUpdateWebhook,
  adminDisableWebhook,
  adminEnableWebhook,
  adminRotateWebhookSecret,
  adminTestWebhook,
  adminRemoveWebhook,
  adminResendWebhookDelivery,
];
