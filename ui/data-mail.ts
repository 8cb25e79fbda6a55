import { join } from "node:path";
import type { AuthContext } from "../src/context.ts";
import { type MailPreview, previewMail } from "../src/services/mail/preview.ts";
import type { MailKind } from "../src/wire/mail.ts";
import { loadMailTemplates, templateKey } from "./mail/template-dir.ts";
import type { Locale } from "./shared/messages/index.ts";

// Part of AdminData (ui/data.ts) for the console's mail screen: a mail with sample values as this deployment
// sends it (the preview `authd mail preview` prints), and which file of the operator's it comes from.

export interface MailAdminData {
  /** `kind` with sample values in `language`; `template`: the operator's file it is written from, or null. */
  previewMail(kind: MailKind, language: Locale): Promise<MailPreview & { template: string | null }>;
}

export function mailData(ctx: AuthContext): MailAdminData {
  return {
    async previewMail(kind, language) {
      const preview = await previewMail(ctx.config, kind, language);
      const dir = ctx.config.mailTemplates;
      // What the daemon read at start (the same cache its mails are written from), not the files as they are now.
      const own = dir && loadMailTemplates(dir).templates.has(templateKey(kind, language));
      return { ...preview, template: own ? join(dir, `${kind}.${language}.md`) : null };
    },
  };
}
