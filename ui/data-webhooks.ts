import type { AuthContext } from "../src/context.ts";
import type { Page } from "../src/services/directory.ts";
import { AUDITED_EVENT_TYPES } from "../src/services/security-event-types.ts";
import type { EventSource } from "../src/services/security-events.ts";
import { effectiveSettings } from "../src/services/settings/effective.ts";
import { checkDependencies } from "../src/services/settings/health.ts";
import {
  listWebhookAttempts,
  resendWebhookAttempt,
  testWebhookEndpoint,
} from "../src/services/webhooks/delivery-log.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  setWebhookEndpointDisabled,
  updateWebhookEndpoint,
} from "../src/services/webhooks/manage.ts";
import { describeWebhookEndpoint, listWebhookEndpoints } from "../src/services/webhooks/webhooks.ts";
import type { DependencyHealth, SettingEntry } from "../src/wire/settings.ts";
import type { WebhookAttemptWire, WebhookEndpointWire, WebhookEndpointWithSecretWire } from "../src/wire/webhook.ts";
import { type MailAdminData, mailData } from "./data-mail.ts";

// Parts of AdminData (ui/data.ts) the web console added for webhooks (endpoints, their delivery log, resend)
// and the settings screen (the configuration with secrets masked, the dependencies' health; the mail
// previews of data-mail.ts ride along, under the same permission). Kept here so ui/data.ts stays one
// screen of the whole.

export interface WebhookAdminData {
  /** Webhook endpoints with their delivery counts and last attempt (never a secret). */
  listWebhookEndpoints(): Promise<WebhookEndpointWire[]>;
  describeWebhookEndpoint(endpointId: string): Promise<WebhookEndpointWire | null>;
  /** The event types an endpoint may ask for (or "*"). */
  webhookEventTypes(): readonly string[];
  /** The new endpoint with its signing secret, shown this once. */
  createWebhookEndpoint(input: { url: string; events: string[] }): Promise<WebhookEndpointWithSecretWire>;
  updateWebhookEndpoint(endpointId: string, input: { url?: string; events?: string[] }): Promise<WebhookEndpointWire>;
  setWebhookEndpointDisabled(endpointId: string, disabled: boolean): Promise<WebhookEndpointWire>;
  /** A new secret, shown this once; the old one signs beside it for graceMs (default a day, 0 not at all). */
  rotateWebhookSecret(endpointId: string, graceMs?: number): Promise<WebhookEndpointWithSecretWire>;
  /** A signed webhook.test message sent now; answers the delivery log's entry. */
  testWebhookEndpoint(endpointId: string): Promise<WebhookAttemptWire>;
  removeWebhookEndpoint(endpointId: string): Promise<void>;
  /** An endpoint's delivery log, newest first; failedOnly keeps the requests that got no 2xx. */
  listWebhookDeliveries(
    endpointId: string,
    request: { failedOnly?: boolean; limit: number; offset: number },
  ): Promise<Page<WebhookAttemptWire>>;
  /** Send a logged delivery again now (of `endpointId` only, when named); answers the new entry. */
  resendWebhookDelivery(deliveryId: string, endpointId?: string): Promise<WebhookAttemptWire>;
  /** Whether webhooks are on here (webhooks.enabled): the terminal UI offers its webhooks screen only then. */
  webhooksEnabled(): boolean;
}

export interface SettingsAdminData {
  /** The effective configuration, one row per setting, every secret masked. */
  readSettings(): SettingEntry[];
  /** The database, Redis, SMTP and the webhook worker, checked now. */
  checkDependencies(): Promise<DependencyHealth[]>;
}

/** Webhook endpoints and their delivery log, changed as `source` (the console's admin). */
export function webhookData(ctx: AuthContext, source: EventSource): WebhookAdminData {
  return {
    listWebhookEndpoints: () => listWebhookEndpoints(ctx),
    describeWebhookEndpoint: (endpointId) => describeWebhookEndpoint(ctx, endpointId),
    webhookEventTypes: () => AUDITED_EVENT_TYPES,
    createWebhookEndpoint: (input) => createWebhookEndpoint(ctx, input, source),
    updateWebhookEndpoint: (endpointId, input) => updateWebhookEndpoint(ctx, endpointId, input, source),
    setWebhookEndpointDisabled: (endpointId, disabled) => setWebhookEndpointDisabled(ctx, endpointId, disabled, source),
    rotateWebhookSecret: (endpointId, graceMs) => rotateWebhookSecret(ctx, endpointId, graceMs, source),
    testWebhookEndpoint: (endpointId) => testWebhookEndpoint(ctx, endpointId),
    removeWebhookEndpoint: (endpointId) => deleteWebhookEndpoint(ctx, endpointId, source),
    listWebhookDeliveries: (endpointId, { failedOnly, limit, offset }) =>
      listWebhookAttempts(ctx, endpointId, { failedOnly }, { limit, offset }),
    resendWebhookDelivery: (deliveryId, endpointId) => resendWebhookAttempt(ctx, deliveryId, endpointId),
    webhooksEnabled: () => ctx.config.webhooks.enabled,
  };
}

/** The settings screen's reads. */
export function settingsData(ctx: AuthContext): SettingsAdminData {
  return {
    readSettings: () => effectiveSettings(ctx.config),
    checkDependencies: () => checkDependencies(ctx),
  };
}

/** Both, and the mail previews (which need the settings' permission too), as createAdminData spreads them. */
export function webhooksAndSettings(
  ctx: AuthContext,
  source: EventSource,
): WebhookAdminData & SettingsAdminData & MailAdminData {
  return { ...webhookData(ctx, source), ...settingsData(ctx), ...mailData(ctx) };
}
