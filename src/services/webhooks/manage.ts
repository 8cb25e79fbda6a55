import type { AuthContext } from "../../context.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import type { WebhookEndpointWire, WebhookEndpointWithSecretWire } from "../../wire/webhook.ts";
import { CLI_SOURCE, type EventSource } from "../security-events.ts";
import {
  addWebhookEndpoint,
  assertChangeable,
  assertEndpointInput,
  describeWebhookEndpoint,
  findEndpointOrThrow,
  generateWebhookSecret,
  parseEvents,
  recordEndpointChange,
  removeWebhookEndpoint,
} from "./webhooks.ts";

// Changing a webhook endpoint: its URL and event types, pausing it, rotating its signing secret. The same
// functions serve the admin API, the console (through ui/data.ts) and `authd webhooks`; each change is a
// webhook_endpoint_changed event from whoever made it. An endpoint from the config file is changed in the
// file (the daemon puts the file's URL, events and secret back), so those changes are refused for it; it
// may still be paused, tested and have deliveries resent.

const DAY_MS = 86_400_000;
/** How long the old secret signs beside the new one after a rotation, unless told otherwise. */
export const DEFAULT_ROTATION_GRACE_MS = DAY_MS;
/** The longest grace a rotation may give the old secret. */
export const MAX_ROTATION_GRACE_MS = 30 * DAY_MS;

async function described(ctx: AuthContext, id: string): Promise<WebhookEndpointWire> {
  const endpoint = await describeWebhookEndpoint(ctx, id);
  if (!endpoint) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
  return endpoint;
}

/** Register an endpoint and answer it as listed, with its secret (shown this once). */
export async function createWebhookEndpoint(
  ctx: AuthContext,
  input: { url: string; events: string[] },
  source: EventSource,
): Promise<WebhookEndpointWithSecretWire> {
  const created = await addWebhookEndpoint(ctx, input, source);
  return { endpoint: await described(ctx, created.id), secret: created.secret };
}

/** A new URL or list of event types; the SSRF rules and the known types apply as when it was made. */
export async function updateWebhookEndpoint(
  ctx: AuthContext,
  id: string,
  input: { url?: string; events?: string[] },
  source: EventSource = CLI_SOURCE,
): Promise<WebhookEndpointWire> {
  const row = await findEndpointOrThrow(ctx, id);
  assertChangeable(row);
  await assertEndpointInput(ctx, input);
  const changes: webhooks.WebhookEndpointChanges = {};
  if (input.url !== undefined && input.url !== row.url) changes.url = input.url;
  const events = input.events === undefined ? undefined : [...new Set(input.events)];
  if (events !== undefined && JSON.stringify(events) !== JSON.stringify(parseEvents(row)))
    changes.events = JSON.stringify(events);
  const fields = Object.keys(changes);
  if (fields.length > 0)
    await withTransaction(ctx, async (tx) => {
      if (!(await webhooks.updateEndpoint(tx.db, id, changes))) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
      await recordEndpointChange(tx, id, "updated", source, fields);
    });
  return described(ctx, id);
}

/**
 * Pause (or resume) an endpoint. While disabled it gets no deliveries: events recorded meanwhile are not
 * queued for it, and what was already waiting stays waiting (nothing is sent) until it is enabled again.
 */
export async function setWebhookEndpointDisabled(
  ctx: AuthContext,
  id: string,
  disabled: boolean,
  source: EventSource = CLI_SOURCE,
): Promise<WebhookEndpointWire> {
  const row = await findEndpointOrThrow(ctx, id);
  if (Boolean(row.disabled) !== disabled)
    await withTransaction(ctx, async (tx) => {
      if (!(await webhooks.updateEndpoint(tx.db, id, { disabled }))) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
      await recordEndpointChange(tx, id, disabled ? "disabled" : "enabled", source);
    });
  return described(ctx, id);
}

/**
 * A new signing secret, answered this once. The old one keeps signing beside it (a second signature in the
 * webhook-signature header, which Standard Webhooks receivers accept) for `graceMs`, so a receiver can move
 * to the new secret without refusing a message; 0 ends the old one at once (it leaked). A rotation during
 * another's grace drops the older secret: only the one just replaced keeps signing.
 */
export async function rotateWebhookSecret(
  ctx: AuthContext,
  id: string,
  graceMs: number = DEFAULT_ROTATION_GRACE_MS,
  source: EventSource = CLI_SOURCE,
): Promise<WebhookEndpointWithSecretWire> {
  const row = await findEndpointOrThrow(ctx, id);
  assertChangeable(row);
  const grace = Math.min(Math.max(0, Math.floor(graceMs)), MAX_ROTATION_GRACE_MS);
  const secret = generateWebhookSecret();
  await withTransaction(ctx, async (tx) => {
    const changed = await webhooks.updateEndpoint(tx.db, id, {
      secret,
      previousSecret: grace > 0 ? row.secret : null,
      previousSecretExpiresAt: grace > 0 ? ctx.now() + grace : null,
    });
    if (!changed) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
    await recordEndpointChange(tx, id, "secret_rotated", source);
  });
  return { endpoint: await described(ctx, id), secret };
}

/** Remove an endpoint made here, with its deliveries and log; WEBHOOK_ENDPOINT_NOT_FOUND when there is none. */
export async function deleteWebhookEndpoint(ctx: AuthContext, id: string, source: EventSource): Promise<void> {
  if (!(await removeWebhookEndpoint(ctx, id, source))) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
}
