import type { Generated } from "kysely";

// The webhook tables (issue 21's outbox, issue 32's delivery log), beside the core tables of schema.ts.
// Booleans are 0/1 on SQLite, false/true on Postgres.

export interface WebhookEndpointTable {
  id: string;
  url: string;
  /** JSON array of event types ("*" for all). */
  events: string;
  /** The signing secret (whsec_…): HMAC needs it as is, so it cannot be hashed. */
  secret: string;
  /** "cli" (authd webhooks add) or "config" (the config file). */
  origin: string;
  createdAt: number;
  /** Paused by an operator: no deliveries are made or sent to it. */
  disabled: Generated<boolean | number>;
  /** After a rotation, the old secret signs beside the new one until previousSecretExpiresAt. */
  previousSecret: Generated<string | null>;
  previousSecretExpiresAt: Generated<number | null>;
}

export interface WebhookDeliveryTable {
  id: string;
  endpointId: string;
  eventId: string;
  status: "pending" | "delivered" | "failed";
  attempts: Generated<number>;
  nextAttemptAt: number;
  leaseUntil: number | null;
  leaseOwner: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** The delivery log: one row per request sent to an endpoint (by the worker, a resend or a test). */
export interface WebhookAttemptTable {
  id: string;
  endpointId: string;
  /** The outbox row it was for; null for a test message. */
  deliveryId: string | null;
  /** The audit event sent (its id is the message's webhook-id); null for a test message. */
  eventId: string | null;
  eventType: string;
  trigger: "delivery" | "resend" | "test";
  requestBytes: number;
  attemptedAt: number;
  durationMs: number;
  ok: boolean | number;
  /** The answer's HTTP status; null when none came (refused, unreachable, timed out). */
  responseStatus: number | null;
  error: string | null;
}
