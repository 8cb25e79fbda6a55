import type { Context } from "hono";
import type { OutboxEntry } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import type { OutboxMail } from "../../wire/mail.ts";
import { commonState } from "./page-state.ts";
import { renderPage } from "./respond.ts";

// The development outbox (docs/mail.md): with no SMTP server, the mails the daemon would have sent, at
// /account/dev/outbox, only while it listens on loopback or AUTH_DEV_OUTBOX=on (mount.ts mounts these routes
// only then; otherwise they are unknown paths, 404). Reading it is reading every link: it is for development.

/** The outbox's frame lets a mail's links open in the top window when pressed: they are the mail's own. */
const OUTBOX_SANDBOX = "allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation";

/**
 * A mail's HTML part as a mail client would draw it: inline styles allowed (a mail has nothing else), no
 * script, no form, images from anywhere (the operator's logo), framed by the pages' origin only, and
 * sandboxed (`sandbox`: what the frame may still do; the console's preview allows nothing).
 */
export function mailViewPolicy(sandbox = OUTBOX_SANDBOX): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src https: http: data:",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `sandbox${sandbox ? ` ${sandbox}` : ""}`,
  ].join("; ");
}

function entryOf(ctx: AuthContext, mail: OutboxMail): OutboxEntry {
  const { html: _html, sentAt, ...shown } = mail;
  return {
    ...shown,
    sentAt: new Date(sentAt).toISOString(),
    htmlPath: `${ctx.config.pages.basePath}/dev/outbox/${encodeURIComponent(mail.id)}`,
  };
}

export function showDevOutbox(c: Context, ctx: AuthContext): Promise<Response> {
  const mails = (ctx.outbox?.list() ?? []).map((mail) => entryOf(ctx, mail));
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "dev-outbox", mails });
}

export function showDevOutboxMail(c: Context, ctx: AuthContext): Response {
  const mail = ctx.outbox?.find(c.req.param("id") ?? "");
  if (!mail) throw new AuthError("NOT_FOUND");
  c.set("framedDocumentPolicy", mailViewPolicy());
  // Links go to the top window: the pages they open refuse to be framed.
  return c.html(mail.html.replace("<head>", '<head><base target="_top">'));
}
