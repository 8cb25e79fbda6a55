import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem, RevealedSecret, WebhookFormValues } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { type ConsoleAccess, consoleScreen, type DrawScreen, queryNumber } from "./frame.ts";

// The webhooks screens (docs/console.md): /console/webhooks lists the endpoints with their delivery counts
// and the forms to add, test and pause; /console/webhooks/:id is one endpoint, its edit, rotate and remove
// forms and its delivery log (failed only on demand) with a resend per entry. They read only through AdminData. A secret
// just made, and a refused form's values, are handed from the action to the drawing of the same answer
// (never through a URL, a cookie or the log).

const LOG_PAGE_SIZE = 50;

const revealedSecrets = new WeakMap<Context, RevealedSecret>();
const refusedForms = new WeakMap<Context, WebhookFormValues>();

/** Show `secret` on the screen this answer draws (an endpoint added, a secret rotated). */
export function revealOnThisAnswer(c: Context, secret: RevealedSecret): void {
  revealedSecrets.set(c, secret);
}

/** Keep what the admin typed for the screen a refusal draws. */
export function keepFormValues(c: Context, values: WebhookFormValues): void {
  refusedForms.set(c, values);
}

export const webhooksScreen = consoleScreen("webhooks", { webhook: ["list"] }, async (c, _ctx, access) => ({
  page: "console-webhooks",
  endpoints: await access.data.listWebhookEndpoints(),
  eventTypes: ["*", ...access.data.webhookEventTypes()],
  revealed: revealedSecrets.get(c) ?? null,
  form: refusedForms.get(c) ?? null,
}));

export const webhookScreen = consoleScreen("webhooks", { webhook: ["list"] }, async (c, _ctx, access) => {
  const endpoint = await access.data.describeWebhookEndpoint(c.req.param("id") ?? "");
  if (!endpoint) return null;
  const failed = c.req.query("failed") === "1";
  const offset = queryNumber(c.req.query("offset"), 0);
  const page = await access.data.listWebhookDeliveries(endpoint.id, {
    failedOnly: failed,
    limit: LOG_PAGE_SIZE,
    offset,
  });
  return {
    page: "console-webhook",
    endpoint,
    revealed: revealedSecrets.get(c) ?? null,
    eventTypes: ["*", ...access.data.webhookEventTypes()],
    attempts: page.items,
    total: page.total,
    query: { failed, offset, limit: LOG_PAGE_SIZE },
    form: refusedForms.get(c) ?? null,
  };
});

/**
 * A refusal drawn on a webhooks screen: tied to the webhooks form (`field`), so the screen words it in the
 * console's own messages (the URL refused for the destination rules, an endpoint from the config file).
 */
function asWebhookProblem(draw: DrawScreen): DrawScreen {
  return (
    c: Context,
    ctx: AuthContext,
    access: ConsoleAccess,
    problem?: FormProblem | null,
    status?: ContentfulStatusCode,
  ) => draw(c, ctx, access, problem ? { ...problem, field: "webhook" } : null, status);
}

export const drawWebhooks = asWebhookProblem(webhooksScreen.draw);
export const drawWebhook = asWebhookProblem(webhookScreen.draw);
