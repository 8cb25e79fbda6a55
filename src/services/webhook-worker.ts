import type { AuthContext } from "../context.ts";
import { generateId } from "../crypto/random.ts";
import { countDeliveriesByEndpoint } from "../db/repositories/webhooks.ts";
import { pruneAuditLog } from "./audit-log.ts";
import { labels } from "./metrics.ts";
import { deliverDue, fanOutEvents } from "./webhook-delivery.ts";
import { syncConfiguredEndpoints } from "./webhooks.ts";

// The daemon's background worker for the audit log: webhook delivery every webhooks.pollIntervalMs, and
// pruning every audit.pruneIntervalMs. Nothing here runs on the request path. Stopping waits for the pass
// in flight; a delivery cut short is retried once its lease runs out.

export interface AuditWorker {
  stop(): Promise<void>;
}

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
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastPrune = 0;
  let synced = false;
  ctx.metrics.addSource(deliveryGauges(ctx));

  const pass = async () => {
    if (!synced) {
      await syncConfiguredEndpoints(ctx);
      synced = true;
    }
    if (ctx.now() - lastPrune >= ctx.config.audit.pruneIntervalMs) {
      lastPrune = ctx.now();
      const pruned = await pruneAuditLog(ctx);
      if (pruned > 0) ctx.logger.info("pruned audit events", { count: pruned });
    }
    if (!ctx.config.webhooks.enabled) return;
    while ((await fanOutEvents(ctx)) > 0 && !stopped) {}
    await deliverDue(ctx, owner);
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => ctx.logger.error("audit worker pass failed", { error }))
        .finally(schedule);
    }, ctx.config.webhooks.pollIntervalMs);
    timer.unref?.();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
