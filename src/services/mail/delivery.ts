import type { Config } from "../../config/schema.ts";
import { findUserLanguageByEmail } from "../../db/repositories/users.ts";
import type { Db } from "../../db/schema.ts";
import type { Mailer } from "../../mailer.ts";
import { requestLanguage } from "../../platform/request-language.ts";
import { codeOf, linkOf, MAILS_ABOUT_OTHERS, type MailMessage, mailHeaders } from "../../wire/mail.ts";
import { defineHook } from "../hooks.ts";
import type { MailOutbox } from "./outbox.ts";

// From a mail message (src/wire/mail.ts) to a sent mail: written in the recipient's language (the one they
// chose on the account page, else the request's Accept-Language, else AUTH_DEFAULT_LANGUAGE) by the mail
// renderer (ui/mail/, loaded with the first mail: React's server renderer is not held by an idle daemon),
// then handed to SMTP, or without SMTP to the log and the development outbox. Sending is background work:
// an answer never waits for, or depends on, delivery.

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  locale: string;
}

export interface MailRenderOptions {
  language?: string | null;
  acceptLanguage?: string | null;
  defaultLanguage: Config["pages"]["defaultLanguage"];
  branding: { appName: string; logoURL: string | null; primaryColor: string };
  templatesDir?: string;
}

export type MailRenderer = (message: MailMessage, options: MailRenderOptions) => RenderedMail;

/**
 * The renderer, loaded on first use: registered by the composition (src/features.ts), since the services
 * never import ui/ and the mails' words live in the message catalogue there.
 */
export const mailRenderer = defineHook<() => Promise<MailRenderer>>("mailRenderer");

export interface MailDeliveryParts {
  config: Config;
  transport: Mailer;
  /** Without SMTP, where mails are kept for /account/dev/outbox (null when it is off). */
  outbox: MailOutbox | null;
  background(task: Promise<unknown>): void;
  now(): number;
  /** Where a recipient's chosen language is read (user.language, set on the account page). */
  db: Db;
}

/** The options a message is rendered with: the deployment's branding, language and templates. */
export function renderOptions(config: Config, acceptLanguage?: string | null): MailRenderOptions {
  return {
    acceptLanguage,
    defaultLanguage: config.pages.defaultLanguage,
    branding: {
      appName: config.appName,
      logoURL: config.pages.logoURL ?? null,
      primaryColor: config.pages.primaryColor,
    },
    templatesDir: config.mailTemplates,
  };
}

/** Render a message with the renderer the composition registered (loading it on first use). */
export async function renderMessage(message: MailMessage, options: MailRenderOptions): Promise<RenderedMail> {
  return (await loadRenderer())(message, options);
}

let loading: Promise<MailRenderer> | undefined;
function loadRenderer(): Promise<MailRenderer> {
  // Resolved at once, so a process that skipped the composition fails at the first mail, loudly.
  const load = mailRenderer.handler();
  loading ??= load();
  return loading;
}

export function createMailDelivery(parts: MailDeliveryParts): (message: MailMessage) => void {
  const { config, transport, outbox } = parts;
  return (message) => {
    // Read now, while the request runs: the language it asked in (a mail about someone else's action is not
    // the recipient's request, and takes the deployment's language).
    const acceptLanguage = MAILS_ABOUT_OTHERS.has(message.kind) ? undefined : requestLanguage();
    // A recipient who is a user and chose a language gets it ahead of both (an invitation to someone who is
    // not a user yet keeps the deployment's). Looking it up must not cost the mail: a failed read falls back.
    const rendering = findUserLanguageByEmail(parts.db, message.to)
      .catch(() => null)
      .then((language) => renderMessage(message, { ...renderOptions(config, acceptLanguage), language }));
    parts.background(
      rendering.then((rendered) => {
        const mail = { to: message.to, ...rendered, kind: message.kind, link: linkOf(message), code: codeOf(message) };
        outbox?.add({ ...mail, sentAt: parts.now() });
        return transport.send({ ...mail, headers: mailHeaders(message.kind) });
      }),
    );
  };
}
