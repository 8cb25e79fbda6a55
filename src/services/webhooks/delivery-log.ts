import { webhookLogRetentionMs } from "../../config/audit-schema.ts";
import type { AuthContext } from "../../context.ts";
import * as log from "../../db/repositories/webhook-attempts.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import { AuthError } from "../../errors.ts";
import type { WebhookAttemptWire } from "../../wire/webhook.ts";
import type { Page, PageRequest } from "../directory.ts";
import { refuseDestination } from "./destination.ts";
import {
  type AttemptResult,
  sendAndLog,
  testMessage,
  toAttemptWire,
  type WebhookMessage,
  webhookPayload,
} from "./send.ts";
import { findEndpointOrThrow } from "./webhooks.ts";

// The delivery log: every request sent to an endpoint (by the worker, a resend or a test) with what was
// sent, the answer and its timing, kept webhooks.logRetention. Read per endpoint (the console, the admin
// API, `authd webhooks deliveries`); any entry can be sent again now (resend), which is an entry of its own.

/** One page of an endpoint's log, newest first; `failedOnly` keeps the attempts that got no 2xx. */
export async function listWebhookAttempts(
  ctx: AuthContext,
  endpointId: string,
  options: { failedOnly?: boolean },
  page: PageRequest,
): Promise<Page<WebhookAttemptWire>> {
  await findEndpointOrThrow(ctx, endpointId);
  const filter = { endpointId, failedOnly: options.failedOnly };
  const [rows, total] = await Promise.all([log.listAttempts(ctx.db, filter, page), log.countAttempts(ctx.db, filter)]);
  return { items: rows.map(toAttemptWire), total };
}

/** `authd webhooks test`, the console's test button: a signed webhook.test message sent now, logged. */
export async function sendTestWebhook(ctx: AuthContext, endpointId: string): Promise<AttemptResult | null> {
  const endpoint = await webhooks.findEndpoint(ctx.db, endpointId);
  if (!endpoint) return null;
  const { result } = await sendAndLog(ctx, endpoint, testMessage(ctx, endpoint.id), {
    trigger: "test",
    deliveryId: null,
  });
  return result;
}

/** The same as sendTestWebhook, answered as the log's entry (WEBHOOK_ENDPOINT_NOT_FOUND without the endpoint). */
export async function testWebhookEndpoint(ctx: AuthContext, endpointId: string): Promise<WebhookAttemptWire> {
  const endpoint = await findEndpointOrThrow(ctx, endpointId);
  const how = { trigger: "test", deliveryId: null } as const;
  return (await sendAndLog(ctx, endpoint, testMessage(ctx, endpoint.id), how)).attempt;
}

/**
 * Send a logged delivery again, now: the same event under the same webhook-id (receivers deduplicate on
 * it), signed afresh, to the endpoint's URL as it is today, after the same SSRF check; a test message is
 * sent as a new test. When it gets through, the outbox stops retrying that delivery. Answers the new entry.
 */
export async function resendWebhookAttempt(
  ctx: AuthContext,
  attemptId: string,
  /** The endpoint the caller believes it belongs to (the console's URL): another's is not found. */
  endpointId?: string,
): Promise<WebhookAttemptWire> {
  const logged = await log.findAttempt(ctx.db, attemptId);
  if (!logged || (endpointId !== undefined && logged.endpointId !== endpointId))
    throw new AuthError("WEBHOOK_DELIVERY_NOT_FOUND");
  const endpoint = await findEndpointOrThrow(ctx, logged.endpointId);
  if (endpoint.disabled) throw new AuthError("WEBHOOK_ENDPOINT_DISABLED");
  const refusal = await refuseDestination(ctx, endpoint.url);
  if (refusal) throw new AuthError("WEBHOOK_DESTINATION_REFUSED", { message: `webhook URL refused: ${refusal}` });
  let message: WebhookMessage;
  if (logged.eventId === null) message = testMessage(ctx, endpoint.id);
  else {
    const event = await webhooks.findDeliveryEvent(ctx.db, logged.eventId);
    if (!event) throw new AuthError("WEBHOOK_EVENT_NO_LONGER_KEPT");
    message = { id: event.id, payload: webhookPayload(event), eventId: event.id, eventType: event.type };
  }
  const { result, attempt } = await sendAndLog(ctx, endpoint, message, {
    trigger: "resend",
    deliveryId: logged.deliveryId,
  });
  if (result.ok && logged.deliveryId)
    await webhooks.markDeliveredByResend(ctx.db, logged.deliveryId, ctx.now(), result.status);
  return attempt;
}

/** Entries older than webhooks.logRetention removed (the daemon's worker); returns how many. */
export async function pruneDeliveryLog(ctx: AuthContext): Promise<number> {
  return log.deleteAttemptsBefore(ctx.db, ctx.now() - webhookLogRetentionMs(ctx.config));
}
