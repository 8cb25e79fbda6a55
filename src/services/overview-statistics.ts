import type { AuthContext } from "../context.ts";
import { countAuditEventsPerBucket } from "../db/repositories/audit-events.ts";
import { countSessions } from "../db/repositories/sessions.ts";
import { countUsers } from "../db/repositories/users.ts";
import { countDeliveriesByEndpoint, listEndpoints } from "../db/repositories/webhooks.ts";
import { isoDate } from "../wire/common.ts";

// The web console's overview (issue 32), an operator view: how many users and active sessions there are,
// sign-ups, sign-ins and failed sign-ins per hour over the last 24 hours and per day over the last 30 (UTC),
// and the webhook deliveries that failed. The activity is one grouped query over the audit log's
// (type, createdAt, outcome) index, counted per hour over the 30 days; the days are sums of their hours.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HOURS_SHOWN = 24;
const DAYS_SHOWN = 30;

/** What happened in one hour or one day. */
export interface ActivityBucket {
  /** When the bucket starts (UTC); the last bucket is the current hour or day so far. */
  start: string;
  signUps: number;
  signIns: number;
  failedSignIns: number;
}

export interface OverviewStatistics {
  /** The time the figures were read. */
  at: string;
  users: number;
  /** Sessions that have not expired. */
  activeSessions: number;
  /** 24 hourly buckets, oldest first, ending with the current hour. */
  hourly: ActivityBucket[];
  /** 30 daily buckets (UTC days), oldest first, ending with today. */
  daily: ActivityBucket[];
  /** The audit log's retention in days: a range longer than it shows only what is kept. */
  retentionDays: number;
  webhooks: {
    enabled: boolean;
    endpoints: number;
    /** Deliveries given up on after their retries. */
    failedDeliveries: number;
    /** Endpoints with at least one delivery given up on. */
    failingEndpoints: number;
    /** Deliveries still to be sent or retried. */
    pendingDeliveries: number;
  };
}

function emptyBuckets(first: number, step: number, count: number): ActivityBucket[] {
  return Array.from({ length: count }, (_, index) => ({
    start: isoDate(first + index * step),
    signUps: 0,
    signIns: 0,
    failedSignIns: 0,
  }));
}

function add(bucket: ActivityBucket | undefined, type: string, outcome: string, count: number): void {
  if (!bucket) return;
  if (type === "sign_up" && outcome === "success") bucket.signUps += count;
  else if (type === "sign_in" && outcome === "success") bucket.signIns += count;
  else if (type === "sign_in" && outcome === "failure") bucket.failedSignIns += count;
}

async function activity(ctx: AuthContext, now: number): Promise<Pick<OverviewStatistics, "hourly" | "daily">> {
  const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS - (DAYS_SHOWN - 1) * DAY_MS;
  const firstHour = thisHour - (HOURS_SHOWN - 1) * HOUR_MS;
  const hourly = emptyBuckets(firstHour, HOUR_MS, HOURS_SHOWN);
  const daily = emptyBuckets(firstDay, DAY_MS, DAYS_SHOWN);
  const counts = await countAuditEventsPerBucket(ctx.db, {
    types: ["sign_up", "sign_in"],
    since: firstDay,
    until: thisHour + HOUR_MS,
    bucketMs: HOUR_MS,
  });
  // Hour n of the range starts at firstDay + n hours: its day is n / 24, its place among the last 24 hours
  // counts from firstHour (which is after firstDay: the 30 days hold the last 24 hours).
  const hoursBeforeFirstHour = (firstHour - firstDay) / HOUR_MS;
  for (const { bucket, type, outcome, count } of counts) {
    add(daily[Math.floor(bucket / 24)], type, outcome, count);
    add(hourly[bucket - hoursBeforeFirstHour], type, outcome, count);
  }
  return { hourly, daily };
}

async function webhookDeliveries(ctx: AuthContext): Promise<OverviewStatistics["webhooks"]> {
  const [endpoints, counts] = await Promise.all([listEndpoints(ctx.db), countDeliveriesByEndpoint(ctx.db)]);
  const failing = new Set<string>();
  let failedDeliveries = 0;
  let pendingDeliveries = 0;
  for (const { endpointId, status, count } of counts) {
    if (status === "failed") {
      failedDeliveries += count;
      if (count > 0) failing.add(endpointId);
    } else if (status === "pending") pendingDeliveries += count;
  }
  return {
    enabled: ctx.config.webhooks.enabled,
    endpoints: endpoints.length,
    failedDeliveries,
    failingEndpoints: failing.size,
    pendingDeliveries,
  };
}

/** The overview's figures, read now. */
export async function readOverviewStatistics(ctx: AuthContext): Promise<OverviewStatistics> {
  const now = ctx.now();
  const [users, activeSessions, { hourly, daily }, webhooks] = await Promise.all([
    countUsers(ctx.db),
    countSessions(ctx.db, { activeAt: now }),
    activity(ctx, now),
    webhookDeliveries(ctx),
  ]);
  return {
    at: isoDate(now),
    users,
    activeSessions,
    hourly,
    daily,
    retentionDays: ctx.config.audit.retentionDays,
    webhooks,
  };
}
