import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { listEventsToFanOut, markFannedOut } from "../../db/repositories/audit-events.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../../db/schema.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { type AttemptResult, sendAndLog, webhookPayload } from "./send.ts";
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

/** Make the deliveries of events not yet fanned out; returns how many events were handled. */
export async function fanOutEvents(ctx: AuthContext): Promise<number> {
  return withTransaction(ctx, async (tx) => {
    const events = await listEventsToFanOut(tx.db, FAN_OUT_BATCH, tx.database.dialect === "postgres");
    if (events.length === 0) return 0;
    // A disabled endpoint gets no deliveries: the events recorded while it is paused are never queued for it.
    const endpoints = (await webhooks.listEndpoints(tx.db)).filter((endpoint) => !endpoint.disabled);
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
  if (endpoint.disabled) {
    // Disabled between the claim and now: the lease goes and the delivery waits until the endpoint is enabled.
    const { nextAttemptAt, lastStatus, lastError } = delivery;
    const unchanged = { status: "pending", nextAttemptAt, lastStatus, lastError, deliveredAt: null } as const;
    await webhooks.finishAttempt(ctx.db, delivery.id, owner, unchanged);
    return;
  }
  const message = { id: event.id, payload: webhookPayload(event), eventId: event.id, eventType: event.type };
  const { result } = await sendAndLog(ctx, endpoint, message, { trigger: "delivery", deliveryId: delivery.id });
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
