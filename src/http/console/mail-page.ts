import type { Context } from "hono";
import { isLocale, type Locale } from "../../../ui/shared/messages/index.ts";
import { consoleHref } from "../../../ui/web/console-state.ts";
import type { AuthContext } from "../../context.ts";
import type { PermissionRequest } from "../../services/access-control.ts";
import { isMailKind, MAIL_KINDS, type MailKind } from "../../wire/mail.ts";
import { mailViewPolicy } from "../pages/dev-outbox-page.ts";
import { linkFailure } from "../pages/mailed-links.ts";
import { consoleAccess, consoleScreen } from "./frame.ts";

// The mail screen (/console/mail, docs/mail.md#preview-and-test): any mail in any language with sample
// values, as this deployment sends it (the preview service `authd mail preview` prints), for whoever may read
// the settings (the templates are configuration). The HTML part is drawn on its own at /console/mail/html,
// with a mail's policy (inline styles, no script) and a sandbox that lets nothing run or navigate.

const PERMISSION: PermissionRequest = { settings: ["read"] };

/** The mail and language the query names; on the screen, anything else is the first mail in the default language. */
function chosen(c: Context, ctx: AuthContext): { mail: MailKind; lang: Locale } {
  const mail = c.req.query("mail");
  const lang = c.req.query("lang");
  return {
    mail: isMailKind(mail) ? mail : "verify-email",
    lang: isLocale(lang) ? lang : ctx.config.pages.defaultLanguage,
  };
}

export const mailScreen = consoleScreen("mail", PERMISSION, async (c, ctx, access) => {
  const query = chosen(c, ctx);
  const { html: _html, ...preview } = await access.data.previewMail(query.mail, query.lang);
  return {
    page: "console-mail",
    mails: [...MAIL_KINDS],
    query,
    preview: { ...preview, htmlPath: consoleHref("/mail/html", query) },
    templatesDir: ctx.config.mailTemplates ?? null,
  };
});

/** The HTML part alone, for the screen's frame; a mail or language that does not exist is 404. */
async function showMailHtml(c: Context, ctx: AuthContext): Promise<Response> {
  const allowed = await consoleAccess(c, ctx, PERMISSION);
  if ("answer" in allowed) return allowed.answer;
  const mail = c.req.query("mail");
  const lang = c.req.query("lang");
  if (!isMailKind(mail) || !isLocale(lang)) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const { html } = await allowed.access.data.previewMail(mail, lang);
  c.set("framedDocumentPolicy", mailViewPolicy(""));
  return c.html(html);
}

export const MAIL_HANDLERS = {
  showMailPreview: mailScreen.show,
  showMailPreviewHtml: showMailHtml,
};
