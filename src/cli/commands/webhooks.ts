import { Command } from "commander";
import * as z from "zod";
import { parseTypeList } from "../../services/audit-log.ts";
import { sendTestWebhook } from "../../services/webhooks/delivery-log.ts";
import {
  addWebhookEndpoint,
  findWebhookEndpoint,
  listWebhookEndpoints,
  removeWebhookEndpoint,
} from "../../services/webhooks/webhooks.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";
import { deliveries, disable, enable, operatorError, resend, rotateSecret, update } from "./webhook-changes.ts";

// authd webhooks: register, list (with delivery status), change, remove and test webhook endpoints, and read
// and resend their deliveries (webhook-changes.ts).

const Flags = z.object({ json: z.boolean().optional(), config: z.string().optional() });
const AddFlags = Flags.extend({ events: z.string().min(1, "name at least one event type, or *") });

const add = createCommand("add", "register an endpoint; prints its signing secret once")
  .argument("<url>", "where events are POSTed")
  .requiredOption("-e, --events <types>", 'event types, comma-separated ("*" for all)')
  .option("--json", "print only JSON")
  .action(async (url: string, raw) => {
    const flags = parseFlags(AddFlags, raw);
    const events = parseTypeList(flags.events) ?? [];
    await withContext(flags, async (ctx) => {
      const endpoint = await addWebhookEndpoint(ctx, { url, events }).catch(operatorError);
      if (flags.json) return printJSON(endpoint);
      writeLines(
        `added webhook ${endpoint.id} → ${endpoint.url} (${endpoint.events.join(", ")})`,
        `secret: ${endpoint.secret}`,
        "keep the secret: receivers verify signatures with it, and it is not shown again",
      );
    });
  });

const list = createCommand("list", "list endpoints with their delivery status")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const endpoints = await listWebhookEndpoints(ctx);
      if (flags.json) return printJSON(endpoints);
      writeLines(
        formatTable(endpoints, [
          { header: "id", value: (e) => e.id },
          { header: "url", value: (e) => e.url },
          { header: "events", value: (e) => e.events.join(",") },
          { header: "from", value: (e) => e.origin },
          { header: "state", value: (e) => (e.disabled ? "disabled" : "enabled") },
          { header: "pending", value: (e) => e.deliveries.pending },
          { header: "delivered", value: (e) => e.deliveries.delivered },
          { header: "failed", value: (e) => e.deliveries.failed },
          {
            header: "last",
            value: (e) => (e.lastAttempt ? (e.lastAttempt.error ?? `HTTP ${e.lastAttempt.status}`) : null),
          },
        ]),
      );
    });
  });

const remove = createCommand("remove", "remove an endpoint and its pending deliveries")
  .argument("<id>", "the endpoint's id (see webhooks list)")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      if (!(await removeWebhookEndpoint(ctx, id).catch(operatorError)))
        throw new UserError(`no webhook endpoint with id ${id}`);
      if (flags.json) printJSON({ removed: id });
      else writeLines(`removed webhook ${id}`);
    });
  });

const test = createCommand("test", "send a signed webhook.test event to an endpoint now and show the answer")
  .argument("<id>", "the endpoint's id")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const endpoint = await findWebhookEndpoint(ctx, id);
      const result = endpoint ? await sendTestWebhook(ctx, endpoint.id) : null;
      if (!endpoint || !result) throw new UserError(`no webhook endpoint with id ${id}`);
      if (flags.json) printJSON(result);
      // A test that did not get a 2xx is a failure the operator fixes (exit 1): scripts and deploy checks
      // rely on the code, not on reading the answer.
      if (!result.ok)
        throw new UserError(`webhook test to ${endpoint.url} failed: ${result.error ?? `HTTP ${result.status}`}`);
      if (!flags.json) writeLines(`delivered (HTTP ${result.status})`);
    });
  });

export const webhooksCommand = new Command("webhooks")
  .description("manage webhook endpoints (Standard Webhooks)")
  .addCommand(add)
  .addCommand(list)
  .addCommand(remove)
  .addCommand(test)
  .addCommand(update)
  .addCommand(disable)
  .addCommand(enable)
  .addCommand(rotateSecret)
  .addCommand(deliveries)
  .addCommand(resend);
