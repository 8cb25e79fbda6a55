import { randomBytes } from "node:crypto";
import type { Config } from "../../config/schema.ts";
import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import { findLastAttempt } from "../../db/repositories/webhook-attempts.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import type { WebhookEndpointRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { iso, isoDate } from "../../wire/common.ts";
import type { WebhookEndpointWire } from "../../wire/webhook.ts";
import { AUDITED_EVENT_TYPES, type WebhookEndpointChange } from "../security-event-types.ts";
import { CLI_SOURCE, type EventSource, recordSecurityEvent } from "../security-events.ts";
import { refuseDestination } from "./destination.ts";

// Webhook endpoints (authd webhooks add/list/remove, the admin API, the console, and the config file) and
// their delivery status. Changing one is manage.ts; delivery itself is webhooks/delivery.ts.

export type { WebhookEndpointWire };

export function parseEvents(row: Pick<WebhookEndpointRow, "events">): string[] {
  try {
    const value = JSON.parse(row.events) as unknown;
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

export function endpointWants(row: Pick<WebhookEndpointRow, "events">, type: string): boolean {
  const events = parseEvents(row);
  return events.includes("*") || events.includes(type);
}

/** The names an endpoint may not ask for: a misspelt type would otherwise register and never fire. */
export function unknownEventTypes(events: string[]): string[] {
  const known = new Set<string>(AUDITED_EVENT_TYPES);
  return events.filter((type) => type !== "*" && !known.has(type));
}

/** One line for the operator: what is unknown and every type there is. */
export function describeUnknownTypes(unknown: string[]): string {
  return `unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; known types: ${AUDITED_EVENT_TYPES.join(", ")} (or * for all)`;
}

/** One line per endpoint in the config file that names an unknown event type (a configuration problem). */
export function configuredEndpointProblems(config: Config): string[] {
  return config.webhooks.endpoints.flatMap((endpoint, index) => {
    const unknown = unknownEventTypes(endpoint.events);
    return unknown.length > 0 ? [`webhooks.endpoints.${index}.events: ${describeUnknownTypes(unknown)}`] : [];
  });
}

/** A new signing secret: 32 random bytes, in the Standard Webhooks form. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Refuse an empty or unknown list of event types, or a destination the daemon may not call. */
export async function assertEndpointInput(ctx: AuthContext, input: { url?: string; events?: string[] }): Promise<void> {
  if (input.events !== undefined) {
    if (input.events.length === 0) throw new AuthError("WEBHOOK_EVENTS_REQUIRED");
    const unknown = unknownEventTypes(input.events);
    if (unknown.length > 0) throw new AuthError("WEBHOOK_EVENT_UNKNOWN", { message: describeUnknownTypes(unknown) });
  }
  if (input.url !== undefined) {
    const refusal = await refuseDestination(ctx, input.url);
    if (refusal) throw new AuthError("WEBHOOK_DESTINATION_REFUSED", { message: `webhook URL refused: ${refusal}` });
  }
}

/** The event of an endpoint change, from whoever made it (the console's admin, the API's caller, the CLI). */
export function recordEndpointChange(
  ctx: AuthContext,
  endpointId: string,
  change: WebhookEndpointChange,
  source: EventSource,
  fields?: string[],
): Promise<void> {
  const details = fields ? { endpointId, change, fields } : { endpointId, change };
  return recordSecurityEvent(ctx, {
    type: "webhook_endpoint_changed",
    outcome: "success",
    ...details,
    userId: null,
    source,
  });
}

/** Register an endpoint; answers it with its secret (shown once: receivers verify signatures with it). */
export async function addWebhookEndpoint(
  ctx: AuthContext,
  input: { url: string; events: string[] },
  source: EventSource = CLI_SOURCE,
): Promise<{ id: string; url: string; events: string[]; secret: string }> {
  await assertEndpointInput(ctx, input);
  const row = {
    id: `wh_${generateId()}`,
    url: input.url,
    events: JSON.stringify([...new Set(input.events)]),
    secret: generateWebhookSecret(),
    origin: "cli",
    createdAt: ctx.now(),
  };
  await withTransaction(ctx, async (tx) => {
    await webhooks.insertEndpoint(tx.db, row);
    await recordEndpointChange(tx, row.id, "created", source);
  });
  return { id: row.id, url: row.url, events: parseEvents(row), secret: row.secret };
}

/** The endpoint, or WEBHOOK_ENDPOINT_NOT_FOUND. */
export async function findEndpointOrThrow(ctx: AuthContext, id: string): Promise<WebhookEndpointRow> {
  const row = await webhooks.findEndpoint(ctx.db, id);
  if (!row) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
  return row;
}

/** An endpoint kept in the config file is changed there: the daemon would put the file's version back. */
export function assertChangeable(row: Pick<WebhookEndpointRow, "origin">): void {
  if (row.origin === "config") throw new AuthError("WEBHOOK_ENDPOINT_READ_ONLY");
}

/** Remove an endpoint made here (with its deliveries and log); false when there is none with this id. */
export async function removeWebhookEndpoint(
  ctx: AuthContext,
  id: string,
  source: EventSource = CLI_SOURCE,
): Promise<boolean> {
  const row = await webhooks.findEndpoint(ctx.db, id);
  if (!row) return false;
  assertChangeable(row);
  return withTransaction(ctx, async (tx) => {
    const removed = await webhooks.deleteEndpoint(tx.db, id);
    if (removed) await recordEndpointChange(tx, id, "removed", source);
    return removed;
  });
}

export async function findWebhookEndpoint(ctx: AuthContext, id: string): Promise<WebhookEndpointRow | undefined> {
  return webhooks.findEndpoint(ctx.db, id);
}

async function toEndpointWire(
  ctx: AuthContext,
  row: WebhookEndpointRow,
  counts: webhooks.EndpointDeliveryCounts[],
): Promise<WebhookEndpointWire> {
  const deliveries = { pending: 0, delivered: 0, failed: 0 };
  for (const count of counts)
    if (count.endpointId === row.id && count.status in deliveries)
      deliveries[count.status as keyof typeof deliveries] = count.count;
  const lastAttempt = await describeLastAttempt(ctx, row.id);
  const graceUntil = row.previousSecret ? Number(row.previousSecretExpiresAt) : null;
  return {
    id: row.id,
    url: row.url,
    events: parseEvents(row),
    origin: row.origin === "config" ? "config" : "cli",
    createdAt: isoDate(Number(row.createdAt)),
    deliveries,
    lastAttempt,
    disabled: Boolean(row.disabled),
    previousSecretExpiresAt: graceUntil !== null && graceUntil > ctx.now() ? iso(graceUntil) : null,
  };
}

/** The newest entry of the delivery log; before the log existed (or once pruned), the outbox's newest attempt. */
async function describeLastAttempt(ctx: AuthContext, endpointId: string): Promise<WebhookEndpointWire["lastAttempt"]> {
  const logged = await findLastAttempt(ctx.db, endpointId);
  if (logged) return { at: isoDate(Number(logged.attemptedAt)), status: logged.responseStatus, error: logged.error };
  const [last] = await webhooks.listLastAttempts(ctx.db, endpointId, 1);
  return last ? { at: isoDate(Number(last.createdAt)), status: last.lastStatus, error: last.lastError } : null;
}

/** Every endpoint with its delivery counts and last attempt (never its secret). */
export async function listWebhookEndpoints(ctx: AuthContext): Promise<WebhookEndpointWire[]> {
  const [rows, counts] = await Promise.all([
    webhooks.listEndpoints(ctx.db),
    webhooks.countDeliveriesByEndpoint(ctx.db),
  ]);
  const result: WebhookEndpointWire[] = [];
  for (const row of rows) result.push(await toEndpointWire(ctx, row, counts));
  return result;
}

/** One endpoint as listWebhookEndpoints shows it; null when there is none with this id. */
export async function describeWebhookEndpoint(ctx: AuthContext, id: string): Promise<WebhookEndpointWire | null> {
  const row = await webhooks.findEndpoint(ctx.db, id);
  if (!row) return null;
  return toEndpointWire(ctx, row, await webhooks.countDeliveriesByEndpoint(ctx.db));
}

/**
 * Make the table hold the config file's endpoints: new ones inserted, changed ones updated, ones removed
 * from the file deleted (with their deliveries). Endpoints added from the command line are left alone.
 */
export async function syncConfiguredEndpoints(ctx: AuthContext): Promise<void> {
  const configured = ctx.config.webhooks.endpoints;
  const existing = await webhooks.listEndpoints(ctx.db);
  for (const endpoint of configured) {
    const id = `config_${endpoint.id}`;
    const fields = { url: endpoint.url, events: JSON.stringify(endpoint.events), secret: endpoint.secret };
    const found = existing.find((row) => row.id === id);
    if (!found) {
      await webhooks.insertEndpointIfAbsent(ctx.db, { id, ...fields, origin: "config", createdAt: ctx.now() });
    } else if (found.url !== fields.url || found.events !== fields.events || found.secret !== fields.secret)
      await webhooks.updateEndpoint(ctx.db, id, fields);
  }
  const keep = new Set(configured.map((endpoint) => `config_${endpoint.id}`));
  for (const row of existing)
    if (row.origin === "config" && !keep.has(row.id)) await webhooks.deleteEndpoint(ctx.db, row.id);
}
