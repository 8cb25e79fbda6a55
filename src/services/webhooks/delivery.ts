import { Webhook } from "standardwebhooks";
import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { listEventsToFanOut, markFannedOut } from "../../db/repositories/audit-events.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import type { AuditEventRow, WebhookDeliveryRow, WebhookEndpointRow } from "../../db/schema.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { toAuditEventWire } from "../audit-log.ts";
import { refuseDestination } from "./destination.ts";
import { endpointWants } from "./webhooks.ts";

// Webhook delivery from the outbox. Each pass (1) turns events not yet fanned out into one pending
// delivery per endpoint that wants them, in one transaction, idempotently (a unique (event, endpoint)
// pair); (2) claims due deliveries one by one with a conditional UPDATE that takes a lease, so of several
// daemons exactly one sends each attempt; (3) sends, signed per Standard Webhooks, without the pass
// waiting for the answer (an endpoint whose attempts are still out is skipped by later passes, the others
// are not held up by it), and records the result: delivered, or retried with exponential backoff until
// the retry window closes. A daemon that
// stops mid-attempt leaves its lease to expire and another (or it, restarted) retries: at least once.

const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;
const MAX_ERROR_TEXT = 200;

/** Make the deliveries of events not yet fanned out; returns how many events were handled. */
export async function fanOutEvents(ctx: AuthContext): Promise<number> {
  return withTransaction(ctx, async (tx) => {
    const events = await listEventsToFanOut(tx.db, FAN_OUT_BATCH, tx.database.dialect === "postgres");
    if (events.length === 0) return 0;
    const endpoints = await webhooks.listEndpoints(tx.db);
    const now = ctx.now();
    const rows = events.flatMap((event) =>
      endpoints
        // An endpoint receives the events recorded after it was registered.
        .filter(
          (endpoint) => Number(endpoint.createdAt) <= Number(event.createdAt) && endpointWants(endpoint, event.type),
        )
        .map((endpoint) => ({
          id: generateId(),
          endpointId: endpoint.id,
          eventId: event.id,
          status: "pending" as const,
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    await webhooks.insertDeliveries(tx.db, rows);
    await markFannedOut(
      tx.db,
      events.map((event) => event.id),
    );
    return events.length;
  });
}

/** The body of a delivery: Standard Webhooks' {type, timestamp, data}, data being the audit event. */
export function webhookPayload(event: AuditEventRow): string {
  const wire = toAuditEventWire(event);
  return JSON.stringify({ type: wire.type, timestamp: wire.createdAt, data: wire });
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One signed POST; never follows a redirect, gives up after webhooks.timeoutMs. */
export async function sendWebhook(
  ctx: AuthContext,
  endpoint: Pick<WebhookEndpointRow, "url" | "secret">,
  messageId: string,
  payload: string,
): Promise<AttemptResult> {
  const refusal = await refuseDestination(ctx, endpoint.url);
  if (refusal) return { ok: false, status: null, error: `refused: ${refusal}` };
  const timestamp = new Date(ctx.now());
  const signature = new Webhook(endpoint.secret).sign(messageId, timestamp, payload);
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
        "webhook-signature": signature,
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

/** The wait before the next attempt: retryBaseMs doubled per attempt made, capped at retryMaxMs. */
export function backoffMs(ctx: AuthContext, attempts: number): number {
  const { retryBaseMs, retryMaxMs } = ctx.config.webhooks;
  return Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/** Told each attempt's result with its endpoint (the worker's failure log, webhooks/health.ts). */
export type AttemptObserver = (endpoint: Pick<WebhookEndpointRow, "id" | "url">, result: AttemptResult) => void;

async function attemptDelivery(
  ctx: AuthContext,
  owner: string,
  delivery: WebhookDeliveryRow,
  observe?: AttemptObserver,
): Promise<void> {
  const [endpoint, event] = await Promise.all([
    webhooks.findEndpoint(ctx.db, delivery.endpointId),
    webhooks.findDeliveryEvent(ctx.db, delivery.eventId),
  ]);
  if (!endpoint || !event) return;
  const result = await sendWebhook(ctx, endpoint, event.id, webhookPayload(event));
  observe?.(endpoint, result);
  const now = ctx.now();
  const windowClosed = now - Number(delivery.createdAt) >= ctx.config.webhooks.retryWindowMs;
  ctx.metrics.countWebhookAttempt(result.ok ? "delivered" : windowClosed ? "failed" : "retry");
  await webhooks.finishAttempt(ctx.db, delivery.id, owner, {
    status: result.ok ? "delivered" : windowClosed ? "failed" : "pending",
    nextAttemptAt: result.ok ? Number(delivery.nextAttemptAt) : now + backoffMs(ctx, delivery.attempts),
    lastStatus: result.status,
    lastError: result.error,
    deliveredAt: result.ok ? now : null,
  });
}

export interface StartedDelivery {
  endpointId: string;
  /** Settles when the attempt's result is recorded. */
  done: Promise<void>;
}

/**
 * Claim the deliveries due now, except those to the endpoints in `busy`, and start sending them without
 * waiting for the answers: a receiver that hangs until the timeout then holds up only its own endpoint
 * (the caller keeps it in `busy` until its attempts settle), never the deliveries to the others.
 */
export async function startDueDeliveries(
  ctx: AuthContext,
  owner: string,
  busy: ReadonlySet<string> = new Set(),
  observe?: AttemptObserver,
): Promise<StartedDelivery[]> {
  const now = ctx.now();
  const ids = await webhooks.listDueDeliveryIds(ctx.db, now, DELIVERY_BATCH, [...busy]);
  const started: StartedDelivery[] = [];
  for (const id of ids) {
    const row = await webhooks.claimDelivery(ctx.db, id, owner, now, now + ctx.config.webhooks.leaseMs);
    if (!row) continue;
    // Caught here, at once: an attempt may fail (the database went away) before anyone awaits it.
    const done = attemptDelivery(ctx, owner, row, observe).catch((error: unknown) =>
      ctx.logger.error("webhook delivery attempt failed", { error, endpointId: row.endpointId, deliveryId: row.id }),
    );
    started.push({ endpointId: row.endpointId, done });
  }
  return started;
}

/** `authd webhooks test`: a signed webhook.test message sent now, outside the outbox; null without the endpoint. */
export async function sendTestWebhook(ctx: AuthContext, endpointId: string): Promise<AttemptResult | null> {
  const endpoint = await webhooks.findEndpoint(ctx.db, endpointId);
  if (!endpoint) return null;
  const messageId = `msg_test_${generateId()}`;
  const timestamp = new Date(ctx.now()).toISOString();
  const payload = JSON.stringify({ type: "webhook.test", timestamp, data: { endpointId } });
  return sendWebhook(ctx, endpoint, messageId, payload);
}
