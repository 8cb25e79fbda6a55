import * as z from "zod";
import { parseDuration } from "../../durations.ts";
import { isAuthError } from "../../errors.ts";
import { parseTypeList } from "../../services/audit-log.ts";
import { listWebhookAttempts, resendWebhookAttempt } from "../../services/webhooks/delivery-log.ts";
import {
  DEFAULT_ROTATION_GRACE_MS,
  MAX_ROTATION_GRACE_MS,
  rotateWebhookSecret,
  setWebhookEndpointDisabled,
  updateWebhookEndpoint,
} from "../../services/webhooks/manage.ts";
import type { WebhookAttemptWire, WebhookEndpointWire } from "../../wire/webhook.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, PageFlags, parseFlags, printJSON, UserError, withContext, withPageOptions } from "../shared.ts";

// authd webhooks update, disable, enable, rotate-secret, deliveries and resend: changing an endpoint and
// reading and resending its deliveries, over the same services as the admin API and the console.

const Flags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

/** A refusal of the services as the operator reads it: one line, exit 1; an unknown event type is bad usage (2). */
export function operatorError(error: unknown): never {
  // A type that does not exist is a flag value that cannot be read: bad usage, as for any flag.
  if (isAuthError(error) && error.key === "WEBHOOK_EVENT_UNKNOWN") throw new UserError(`--events: ${error.message}`, 2);
  if (isAuthError(error)) throw new UserError(error.message);
  throw error;
}

function describe(endpoint: WebhookEndpointWire): string {
  const state = endpoint.disabled ? "disabled" : "enabled";
  return `webhook ${endpoint.id} → ${endpoint.url} (${endpoint.events.join(", ")}), ${state}`;
}

const UpdateFlags = Flags.extend({ url: z.string().min(1).optional(), events: z.string().min(1).optional() }).refine(
  (flags) => flags.url !== undefined || flags.events !== undefined,
  { message: "name --url or --events (or both)" },
);

export const update = createCommand("update", "change an endpoint's URL or event types (not one from the config file)")
  .argument("<id>", "the endpoint's id")
  .option("--url <url>", "where events are POSTed from now on")
  .option("-e, --events <types>", 'event types, comma-separated ("*" for all)')
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(UpdateFlags, raw);
    await withContext(flags, async (ctx) => {
      const input = { url: flags.url, events: parseTypeList(flags.events) };
      const endpoint = await updateWebhookEndpoint(ctx, id, input).catch(operatorError);
      if (flags.json) return printJSON(endpoint);
      writeLines(`updated ${describe(endpoint)}`);
    });
  });

function switchCommand(name: "disable" | "enable", description: string) {
  return createCommand(name, description)
    .argument("<id>", "the endpoint's id")
    .option("--json", "print only JSON")
    .action(async (id: string, raw) => {
      const flags = parseFlags(Flags, raw);
      await withContext(flags, async (ctx) => {
        const endpoint = await setWebhookEndpointDisabled(ctx, id, name === "disable").catch(operatorError);
        if (flags.json) return printJSON(endpoint);
        writeLines(`${name}d ${describe(endpoint)}`);
      });
    });
}

export const disable = switchCommand(
  "disable",
  "pause an endpoint: no deliveries until it is enabled (waiting ones wait)",
);
export const enable = switchCommand("enable", "resume a paused endpoint");

/** `--grace`: a duration (24h, 30m, 0 to end the old secret at once); a bare number is seconds. */
const GraceFlag = z
  .string()
  .transform((text, issue) => {
    if (/^0+(ms|s|m|h|d)?$/.test(text.trim())) return 0;
    const ms = parseDuration(text, "s");
    if (ms === null || ms > MAX_ROTATION_GRACE_MS) {
      issue.addIssue({ code: "custom", message: "expected a duration of at most 30d (24h, 30m, 0)" });
      return z.NEVER;
    }
    return ms;
  })
  .optional();

export const rotateSecret = createCommand(
  "rotate-secret",
  "give an endpoint a new signing secret; prints it once (the old one signs beside it for --grace)",
)
  .argument("<id>", "the endpoint's id")
  .option("--grace <duration>", "how long the old secret keeps signing too (0: not at all)", "24h")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags.extend({ grace: GraceFlag }), raw);
    await withContext(flags, async (ctx) => {
      const grace = flags.grace ?? DEFAULT_ROTATION_GRACE_MS;
      const rotated = await rotateWebhookSecret(ctx, id, grace).catch(operatorError);
      if (flags.json) return printJSON(rotated);
      const until = rotated.endpoint.previousSecretExpiresAt;
      writeLines(
        `rotated the secret of webhook ${id}`,
        `secret: ${rotated.secret}`,
        until ? `the old secret signs beside it until ${until}` : "the old secret no longer signs",
        "keep the secret: receivers verify signatures with it, and it is not shown again",
      );
    });
  });

const attemptColumns = [
  { header: "id", value: (a: WebhookAttemptWire) => a.id },
  { header: "at", value: (a: WebhookAttemptWire) => a.attemptedAt },
  { header: "event", value: (a: WebhookAttemptWire) => a.eventType },
  { header: "by", value: (a: WebhookAttemptWire) => a.trigger },
  { header: "bytes", value: (a: WebhookAttemptWire) => a.requestBytes },
  { header: "status", value: (a: WebhookAttemptWire) => a.status },
  { header: "ms", value: (a: WebhookAttemptWire) => a.durationMs },
  { header: "error", value: (a: WebhookAttemptWire) => a.error },
];

export const deliveries = withPageOptions(
  createCommand("deliveries", "an endpoint's delivery log, newest first: each request sent and its answer"),
)
  .argument("<endpoint-id>", "the endpoint's id")
  .option("--failed", "only the requests that got no 2xx answer")
  .option("--json", "print only JSON")
  .action(async (endpointId: string, raw) => {
    const flags = parseFlags(PageFlags.extend({ failed: z.boolean().optional() }), raw);
    await withContext(flags, async (ctx) => {
      const page = await listWebhookAttempts(
        ctx,
        endpointId,
        { failedOnly: flags.failed },
        { limit: flags.limit, offset: flags.offset },
      ).catch(operatorError);
      if (flags.json) return printJSON({ attempts: page.items, total: page.total });
      writeLines(formatTable(page.items, attemptColumns), `${page.items.length} of ${page.total}`);
    });
  });

export const resend = createCommand("resend", "send a logged delivery again now; the new attempt is logged too")
  .argument("<delivery-id>", "the id `webhooks deliveries` lists")
  .option("--json", "print only JSON")
  .action(async (deliveryId: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const attempt = await resendWebhookAttempt(ctx, deliveryId).catch(operatorError);
      if (flags.json) printJSON(attempt);
      // As for `webhooks test`: a resend that got no 2xx exits 1, so scripts can rely on the code.
      if (!attempt.ok) throw new UserError(`resend failed: ${attempt.error ?? `HTTP ${attempt.status}`}`);
      if (!flags.json) writeLines(`delivered (HTTP ${attempt.status}) as ${attempt.id}`);
    });
  });
