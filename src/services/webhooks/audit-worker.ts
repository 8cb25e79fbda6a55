import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { countDeliveriesByEndpoint } from "../../db/repositories/webhooks.ts";
import { labels } from "../../platform/metrics.ts";
import { perContext } from "../../platform/per-context.ts";
import { repeatEvery } from "../../platform/repeating-task.ts";
import { pruneAuditLog } from "../audit-log.ts";
import { fanOutEvents, type StartedDelivery, startDueDeliveries } from "./delivery.ts";
import { pruneDeliveryLog } from "./delivery-log.ts";
import { createDeliveryHealthLog } from "./health.ts";
import { syncConfiguredEndpoints } from "./webhooks.ts";

// The daemon's background worker for the audit log: webhook delivery every webhooks.pollIntervalMs, and
// pruning every audit.pruneIntervalMs, both from a first pass at start. Nothing here runs on the request path. A pass does not wait for
// the deliveries it starts: each endpoint's attempts run on their own, and an endpoint with attempts still
// out is skipped until they settle, so a receiver that never answers delays only itself (and gets one
// batch of attempts at a time). Stopping waits for the pass and the attempts in flight; a delivery cut
// short is retried once its lease runs out.

export interface AuditWorker {
  /** Settles when the first pass (at start: the configured endpoints synced, the first prune) has ended. */
  readonly firstPass: Promise<void>;
  stop(): Promise<void>;
}

/** What this process's worker did last (the console's settings screen tells its health from it). */
export interface AuditWorkerState {
  running: boolean;
  /** When its last pass ended (ms), or null before the first. */
  lastPassAt: number | null;
  /** Why its last pass failed; null once a pass succeeds. */
  lastError: string | null;
}

/** This context's worker state; never started: not running. */
export const auditWorkerState = perContext<AuditWorkerState>(() => ({
  running: false,
  lastPassAt: null,
  lastError: null,
}));

/** Delivery counts per endpoint and status, as /metrics gauges. */
function deliveryGauges(ctx: AuthContext): () => Promise<string[]> {
  return async () => {
    const lines = [
      "# HELP authd_webhook_deliveries Webhook deliveries in the outbox by endpoint and status.",
      "# TYPE authd_webhook_deliveries gauge",
    ];
    for (const count of await countDeliveriesByEndpoint(ctx.db))
      lines.push(
        `authd_webhook_deliveries${labels({ endpoint: count.endpointId, status: count.status })} ${count.count}`,
      );
    return lines;
  };
}

export function startAuditWorker(ctx: AuthContext): AuditWorker {
  const owner = generateId();
  let lastPrune = 0;
  let synced = false;
  ctx.metrics.addSource(deliveryGauges(ctx));
  const observe = createDeliveryHealthLog(ctx);
  /** Attempts in flight per endpoint; an endpoint listed here gets no new attempt. */
  const inFlight = new Map<string, number>();
  const sending = new Set<Promise<void>>();

  const track = ({ endpointId, done }: StartedDelivery) => {
    inFlight.set(endpointId, (inFlight.get(endpointId) ?? 0) + 1);
    const settled = done.finally(() => {
      const left = (inFlight.get(endpointId) ?? 1) - 1;
      if (left > 0) inFlight.set(endpointId, left);
      else inFlight.delete(endpointId);
      sending.delete(settled);
    });
    sending.add(settled);
  };

  const pass = async () => {
    if (!synced) {
      await syncConfiguredEndpoints(ctx);
      synced = true;
    }
    if (ctx.now() - lastPrune >= ctx.config.audit.pruneIntervalMs) {
      lastPrune = ctx.now();
      const pruned = await pruneAuditLog(ctx);
      if (pruned > 0) ctx.logger.info("pruned audit events", { count: pruned });
      const entries = await pruneDeliveryLog(ctx);
      if (entries > 0) ctx.logger.info("pruned webhook delivery log", { count: entries });
    }
    if (!ctx.config.webhooks.enabled) return;
    while ((await fanOutEvents(ctx)) > 0 && !task.stopped) {}
    for (const started of await startDueDeliveries(ctx, owner, new Set(inFlight.keys()), observe)) track(started);
  };

  const state = auditWorkerState(ctx);
  state.running = true;
  const observedPass = async () => {
    await pass();
    state.lastPassAt = ctx.now();
    state.lastError = null;
  };
  // The first pass runs as the daemon starts: the configured endpoints are synced and the log pruned at once.
  const task = repeatEvery(
    ctx.config.webhooks.pollIntervalMs,
    observedPass,
    (error: unknown) => {
      state.lastError = error instanceof Error ? error.message : String(error);
      ctx.logger.error("audit worker pass failed", { error });
    },
    { firstAfterMs: 0 },
  );
  return {
    firstPass: task.firstPass,
    async stop() {
      state.running = false;
      await task.stop();
      await Promise.all(sending);
    },
  };
}
