import { randomBytes } from "node:crypto";
import type { Config } from "../../config/schema.ts";
import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import * as webhooks from "../../db/repositories/webhooks.ts";
import type { WebhookEndpointRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { AUDITED_EVENT_TYPES } from "../security-event-types.ts";
import { refuseDestination } from "./destination.ts";

// Webhook endpoints (authd webhooks add/list/remove, and the config file) and their delivery status.
// Delivery itself is webhooks/delivery.ts.

export interface WebhookEndpointWire {
  id: string;
  url: string;
  events: string[];
  origin: "cli" | "config";
  createdAt: string;
  deliveries: { pending: number; delivered: number; failed: number };
  lastAttempt: { at: string; status: number | null; error: string | null } | null;
}

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
function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Register an endpoint; answers it with its secret (shown once: receivers verify signatures with it). */
export async function addWebhookEndpoint(
  ctx: AuthContext,
  input: { url: string; events: string[] },
): Promise<{ id: string; url: string; events: string[]; secret: string }> {
  if (input.events.length === 0) throw new AuthError("WEBHOOK_EVENTS_REQUIRED");
  const unknown = unknownEventTypes(input.events);
  if (unknown.length > 0) throw new AuthError("WEBHOOK_EVENT_UNKNOWN", { message: describeUnknownTypes(unknown) });
  const refusal = await refuseDestination(ctx, input.url);
  if (refusal) throw new AuthError("WEBHOOK_DESTINATION_REFUSED", { message: `webhook URL refused: ${refusal}` });
  const row = {
    id: `wh_${generateId()}`,
    url: input.url,
    events: JSON.stringify([...new Set(input.events)]),
    secret: generateWebhookSecret(),
    origin: "cli",
    createdAt: ctx.now(),
  };
  await webhooks.insertEndpoint(ctx.db, row);
  return { id: row.id, url: row.url, events: parseEvents(row), secret: row.secret };
}

export async function removeWebhookEndpoint(ctx: AuthContext, id: string): Promise<boolean> {
  return webhooks.deleteEndpoint(ctx.db, id);
}

export async function findWebhookEndpoint(ctx: AuthContext, id: string): Promise<WebhookEndpointRow | undefined> {
  return webhooks.findEndpoint(ctx.db, id);
}

/** Every endpoint with its delivery counts and last attempt (never its secret). */
export async function listWebhookEndpoints(ctx: AuthContext): Promise<WebhookEndpointWire[]> {
  const [rows, counts] = await Promise.all([
    webhooks.listEndpoints(ctx.db),
    webhooks.countDeliveriesByEndpoint(ctx.db),
  ]);
  const result: WebhookEndpointWire[] = [];
  for (const row of rows) {
    const deliveries = { pending: 0, delivered: 0, failed: 0 };
    for (const count of counts)
      if (count.endpointId === row.id && count.status in deliveries)
        deliveries[count.status as keyof typeof deliveries] = count.count;
    const [last] = await webhooks.listLastAttempts(ctx.db, row.id, 1);
    result.push({
      id: row.id,
      url: row.url,
      events: parseEvents(row),
      origin: row.origin === "config" ? "config" : "cli",
      createdAt: new Date(Number(row.createdAt)).toISOString(),
      deliveries,
      lastAttempt: last
        ? { at: new Date(Number(last.createdAt)).toISOString(), status: last.lastStatus, error: last.lastError }
        : null,
    });
  }
  return result;
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
