import { Webhook } from "standardwebhooks";
import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { insertAttempt } from "../../db/repositories/webhook-attempts.ts";
import type { AuditEventRow, WebhookAttemptRow, WebhookEndpointRow } from "../../db/schema.ts";
import { isoDate } from "../../wire/common.ts";
import type { WebhookAttemptWire } from "../../wire/webhook.ts";
import { toAuditEventWire } from "../audit-log.ts";
import { refuseDestination } from "./destination.ts";

// One webhook request: signed per Standard Webhooks (with the old secret too during a rotation's grace),
// sent to a destination the SSRF rules allow, never following a redirect, and written to the delivery log
// with what was sent, the answer and how long it took. The worker, a resend and a test all send this way.

const MAX_ERROR_TEXT = 200;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** What an endpoint needs to be sent to: where, and the secrets that sign. */
export type SendableEndpoint = Pick<WebhookEndpointRow, "url" | "secret"> &
  Partial<Pick<WebhookEndpointRow, "previousSecret" | "previousSecretExpiresAt">>;

/** The body of a delivery: Standard Webhooks' {type, timestamp, data}, data being the audit event. */
export function webhookPayload(event: AuditEventRow): string {
  const wire = toAuditEventWire(event);
  return JSON.stringify({ type: wire.type, timestamp: wire.createdAt, data: wire });
}

/**
 * The webhook-signature header: the current secret's signature, and the previous secret's while a rotation's
 * grace lasts (Standard Webhooks lists several signatures separated by spaces; a receiver accepts any).
 */
function signatures(ctx: AuthContext, endpoint: SendableEndpoint, messageId: string, at: Date, payload: string) {
  const signed = [new Webhook(endpoint.secret).sign(messageId, at, payload)];
  if (endpoint.previousSecret && Number(endpoint.previousSecretExpiresAt) > ctx.now())
    signed.push(new Webhook(endpoint.previousSecret).sign(messageId, at, payload));
  return signed.join(" ");
}

/** One signed POST; never follows a redirect, gives up after webhooks.timeoutMs. */
export async function sendWebhook(
  ctx: AuthContext,
  endpoint: SendableEndpoint,
  messageId: string,
  payload: string,
): Promise<AttemptResult> {
  const refusal = await refuseDestination(ctx, endpoint.url);
  if (refusal) return { ok: false, status: null, error: `refused: ${refusal}` };
  const timestamp = new Date(ctx.now());
  try {
    const response = await fetch(endpoint.url, {
      method: "POST",
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(ctx.config.webhooks.timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "authd-webhooks",
        "webhook-id": messageId,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signatures(ctx, endpoint, messageId, timestamp, payload),
      },
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: null };
    const error = response.status >= 300 && response.status < 400 ? "redirect not followed" : `HTTP ${response.status}`;
    return { ok: false, status: response.status, error };
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, status: null, error: text.slice(0, MAX_ERROR_TEXT) };
  }
}

/** A message to send: its webhook-id and body, and what the log says it was. */
export interface WebhookMessage {
  id: string;
  payload: string;
  /** The audit event it carries; null for a test message. */
  eventId: string | null;
  eventType: string;
}

/** A signed webhook.test message, outside the outbox. */
export function testMessage(ctx: AuthContext, endpointId: string): WebhookMessage {
  const timestamp = new Date(ctx.now()).toISOString();
  const payload = JSON.stringify({ type: "webhook.test", timestamp, data: { endpointId } });
  return { id: `msg_test_${generateId()}`, payload, eventId: null, eventType: "webhook.test" };
}

export function toAttemptWire(row: WebhookAttemptRow): WebhookAttemptWire {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    trigger: row.trigger,
    requestBytes: Number(row.requestBytes),
    attemptedAt: isoDate(Number(row.attemptedAt)),
    durationMs: Number(row.durationMs),
    ok: Boolean(row.ok),
    status: row.responseStatus === null ? null : Number(row.responseStatus),
    error: row.error,
  };
}

/** Send one message and write it to the delivery log; answers the result and the log's entry. */
export async function sendAndLog(
  ctx: AuthContext,
  endpoint: SendableEndpoint & Pick<WebhookEndpointRow, "id">,
  message: WebhookMessage,
  how: { trigger: WebhookAttemptRow["trigger"]; deliveryId: string | null },
): Promise<{ result: AttemptResult; attempt: WebhookAttemptWire }> {
  const attemptedAt = ctx.now();
  const started = performance.now();
  const result = await sendWebhook(ctx, endpoint, message.id, message.payload);
  const row: WebhookAttemptRow = {
    id: `whd_${generateId()}`,
    endpointId: endpoint.id,
    deliveryId: how.deliveryId,
    eventId: message.eventId,
    eventType: message.eventType,
    trigger: how.trigger,
    requestBytes: Buffer.byteLength(message.payload),
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
    ok: result.ok,
    responseStatus: result.status,
    error: result.error,
  };
  // The request went out whatever the log says: a failed write (the endpoint removed meanwhile) is logged,
  // and the caller still records the outcome.
  await insertAttempt(ctx.db, row).catch((error: unknown) =>
    ctx.logger.warn("webhook delivery log entry not written", { error, endpointId: endpoint.id }),
  );
  return { result, attempt: toAttemptWire(row) };
}
