import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import type { FormFields } from "../pages/guard.ts";
import { type ConsoleAccess, consoleAction, type DrawScreen } from "./frame.ts";
import {
  drawWebhook,
  drawWebhooks,
  keepFormValues,
  revealOnThisAnswer,
  webhookScreen,
  webhooksScreen,
} from "./webhooks-page.ts";

// The webhooks screens' forms. Each asks for its webhook permission (manage; resend for a resend), passes the
// pages' guard, acts through AdminData (which records who did it) and goes back with a notice, or redraws the
// screen with the refusal. Adding an endpoint (the list) and rotating a secret (the endpoint's screen) answer
// at once with the new secret on the screen: it is shown this once, never put in a URL.

const MANAGE = { webhook: ["manage"] };
const HOUR_MS = 3_600_000;
/** The grace choices of the rotate form; anything else is the default (a day). */
const GRACES: Record<string, number> = { "0": 0, "1h": HOUR_MS, "24h": 24 * HOUR_MS, "7d": 7 * 24 * HOUR_MS };

/** The checked event types (checkboxes named `event:<type>`); "*" alone when every type is asked for. */
function checkedEvents(fields: FormFields): string[] {
  const events = Object.entries(fields)
    .filter(([name, value]) => name.startsWith("event:") && value === "on")
    .map(([name]) => name.slice("event:".length));
  return events.includes("*") ? ["*"] : events;
}

const endpointId = (c: Context): string => c.req.param("id") ?? "";
const detail = (c: Context) => `/webhooks/${encodeURIComponent(endpointId(c))}`;

/** Draw `screen` with the new secret on it (200: this answer is the only place it appears). */
function showSecret(
  c: Context,
  ctx: AuthContext,
  access: ConsoleAccess,
  screen: { draw: DrawScreen },
  made: { endpoint: { id: string; url: string }; secret: string },
) {
  revealOnThisAnswer(c, { endpointId: made.endpoint.id, url: made.endpoint.url, secret: made.secret });
  return screen.draw(c, ctx, access);
}

export const WEBHOOK_ACTION_HANDLERS = {
  createWebhook: consoleAction(MANAGE, drawWebhooks, async (c, ctx, access, fields) => {
    const input = { url: (fields.url ?? "").trim(), events: checkedEvents(fields) };
    keepFormValues(c, input);
    return showSecret(c, ctx, access, webhooksScreen, await access.data.createWebhookEndpoint(input));
  }),

  updateWebhook: consoleAction(MANAGE, drawWebhook, async (c, _ctx, access, fields) => {
    const input = { url: (fields.url ?? "").trim(), events: checkedEvents(fields) };
    keepFormValues(c, input);
    await access.data.updateWebhookEndpoint(endpointId(c), input);
    return { to: detail(c), notice: "console.webhooks.notice.updated" };
  }),

  disableWebhook: consoleAction(MANAGE, drawWebhooks, async (c, _ctx, access) => {
    await access.data.setWebhookEndpointDisabled(endpointId(c), true);
    return { to: "/webhooks", notice: "console.webhooks.notice.disabled" };
  }),

  enableWebhook: consoleAction(MANAGE, drawWebhooks, async (c, _ctx, access) => {
    await access.data.setWebhookEndpointDisabled(endpointId(c), false);
    return { to: "/webhooks", notice: "console.webhooks.notice.enabled" };
  }),

  rotateWebhookSecret: consoleAction(MANAGE, drawWebhook, async (c, ctx, access, fields) => {
    const grace = Object.hasOwn(GRACES, fields.grace ?? "") ? GRACES[fields.grace ?? ""] : undefined;
    return showSecret(c, ctx, access, webhookScreen, await access.data.rotateWebhookSecret(endpointId(c), grace));
  }),

  testWebhook: consoleAction(MANAGE, drawWebhooks, async (c, _ctx, access) => {
    const attempt = await access.data.testWebhookEndpoint(endpointId(c));
    const notice = attempt.ok ? "console.webhooks.notice.testDelivered" : "console.webhooks.notice.testFailed";
    return { to: detail(c), notice };
  }),

  removeWebhook: consoleAction(MANAGE, drawWebhook, async (c, _ctx, access, fields) => {
    // Removing takes the endpoint's log with it: the form asks for a tick first (no script needed).
    if (fields.confirm !== "on") throw new AuthError("VALIDATION_ERROR", { message: "confirm" });
    await access.data.removeWebhookEndpoint(endpointId(c));
    return { to: "/webhooks", notice: "console.webhooks.notice.removed" };
  }),

  resendWebhookDelivery: consoleAction({ webhook: ["resend"] }, drawWebhook, async (c, _ctx, access, fields) => {
    const attempt = await access.data.resendWebhookDelivery(fields.deliveryId ?? "", endpointId(c));
    const notice = attempt.ok ? "console.webhooks.notice.resent" : "console.webhooks.notice.resendFailed";
    return { to: detail(c), notice };
  }),
};

export const WEBHOOK_SCREEN_HANDLERS = {
  showWebhooks: webhooksScreen.show,
  showWebhook: webhookScreen.show,
};
