import type { WebhookAttemptWire, WebhookEndpointWire } from "../../../src/wire/webhook.ts";
import type { ConsoleFrame } from "./frame-state.ts";

// The webhooks screens: /console/webhooks (the endpoints, adding one, testing, pausing) and
// /console/webhooks/:id (one endpoint: editing it, rotating its secret, removing it, and its delivery log
// with resend).

export type ConsoleWebhookEndpoint = WebhookEndpointWire;
export type ConsoleWebhookAttempt = WebhookAttemptWire;

/** A signing secret just made (an endpoint added, a secret rotated): shown on this answer only. */
export interface RevealedSecret {
  endpointId: string;
  url: string;
  secret: string;
}

/** What the add or edit form held when it was refused, so the admin does not type it again. */
export interface WebhookFormValues {
  url: string;
  events: string[];
}

export interface ConsoleWebhooksState {
  page: "console-webhooks";
  console: ConsoleFrame;
  endpoints: ConsoleWebhookEndpoint[];
  /** The event types an endpoint may ask for ("*": all). */
  eventTypes: string[];
  revealed: RevealedSecret | null;
  form: WebhookFormValues | null;
}

export interface ConsoleWebhookState {
  page: "console-webhook";
  console: ConsoleFrame;
  endpoint: ConsoleWebhookEndpoint;
  revealed: RevealedSecret | null;
  eventTypes: string[];
  attempts: ConsoleWebhookAttempt[];
  total: number;
  query: { failed: boolean; offset: number; limit: number };
  form: WebhookFormValues | null;
}
