import type { Config } from "../../config/schema.ts";
import { codeOf, linkOf, type MailKind } from "../../wire/mail.ts";
import { type RenderedMail, renderMessage, renderOptions } from "./delivery.ts";
import { sampleMessage } from "./samples.ts";

// A mail with sample values as this deployment would send it (its templates, branding and language), for
// `authd mail preview` and `send-test` and the console's mail screen: one way to preview, so both show the
// same mail.

export interface MailPreview extends RenderedMail {
  /** The sample link the mail carries (a token that opens nothing), or null. */
  link: string | null;
  /** The sample code the mail carries, or null. */
  code: string | null;
}

/** `kind` with sample values, in `language` (else AUTH_DEFAULT_LANGUAGE), addressed to `to` when given. */
export async function previewMail(
  config: Config,
  kind: MailKind,
  language?: string | null,
  to?: string,
): Promise<MailPreview> {
  const message = sampleMessage(kind, config, to);
  const rendered = await renderMessage(message, { ...renderOptions(config), language });
  return { ...rendered, link: linkOf(message), code: codeOf(message) };
}
