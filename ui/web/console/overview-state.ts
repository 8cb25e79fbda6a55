import type { ConsoleFrame } from "./frame-state.ts";

// The console's home (/console): how many users and active sessions there are, sign-ups, sign-ins and
// failed sign-ins over the last 24 hours (per hour) or 30 days (per day), and failing webhook deliveries.

export type OverviewRange = "24h" | "30d";

/** One hour or one day of activity. */
export interface OverviewBucket {
  /** When it starts (ISO, UTC). */
  start: string;
  signUps: number;
  signIns: number;
  failedSignIns: number;
}

export interface ConsoleOverviewState {
  page: "console-overview";
  console: ConsoleFrame;
  range: OverviewRange;
  /** When the figures were read. */
  at: string;
  users: number;
  /** Null: the admin may not list sessions. */
  activeSessions: number | null;
  /** The range's buckets, oldest first; null: the admin may not read the audit log. */
  activity: OverviewBucket[] | null;
  /** Days the audit log keeps: a range longer than this shows only what is kept. */
  retentionDays: number;
  /** Null: webhooks are off and none are registered, or the admin may not list them. */
  webhooks: { endpoints: number; failedDeliveries: number; failingEndpoints: number; pendingDeliveries: number } | null;
}
