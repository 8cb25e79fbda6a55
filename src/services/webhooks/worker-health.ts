import type { AuthContext } from "../../context.ts";
import { countOverdueDeliveries } from "../../db/repositories/webhooks.ts";
import { auditWorkerState } from "./audit-worker.ts";

// The delivery worker's health as this process sees it (the console's settings screen): whether it runs here,
// when its last pass ended, whether that pass failed, and how many deliveries are overdue (due a while ago
// to an enabled endpoint and still waiting: a sign that no daemon is delivering).

export interface WebhookWorkerHealth {
  status: "up" | "down" | "off";
  /** Why it is down: not started in this process, no pass for a while, or its last pass failed. */
  reason: "not-running" | "stalled" | "failing" | null;
  /** The last pass's failure, as it was thrown. */
  error: string | null;
  lastPassAt: number | null;
  overdueDeliveries: number;
}

const MINUTE_MS = 60_000;

export async function webhookWorkerHealth(ctx: AuthContext): Promise<WebhookWorkerHealth> {
  const { pollIntervalMs, timeoutMs, enabled } = ctx.config.webhooks;
  const state = auditWorkerState(ctx);
  const now = ctx.now();
  // Longer than a pass's pause and an attempt's timeout together, with room for a slow machine.
  const late = Math.max(MINUTE_MS, 10 * pollIntervalMs, 2 * timeoutMs);
  const overdueDeliveries = enabled ? await countOverdueDeliveries(ctx.db, now - late) : 0;
  const facts = { error: state.lastError, lastPassAt: state.lastPassAt, overdueDeliveries };
  if (!enabled) return { status: "off", reason: null, ...facts };
  if (!state.running) return { status: "down", reason: "not-running", ...facts };
  if (state.lastError !== null) return { status: "down", reason: "failing", ...facts };
  if (state.lastPassAt !== null && now - state.lastPassAt > late)
    return { status: "down", reason: "stalled", ...facts };
  return { status: "up", reason: null, ...facts };
}
