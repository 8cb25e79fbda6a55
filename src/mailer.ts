import nodemailer from "nodemailer";
import type { Logger } from "./logger.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpURL?: string;
  from: string;
  timeoutMs: number;
  logger: Logger;
}

/**
 * SMTP when configured, the log otherwise (so a developer sees the links). Sending never throws to the
 * caller: a failing SMTP server is logged, and the caller's answer must not depend on delivery (that
 * would tell whether an address exists).
 */
export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  if (!options.smtpURL) {
    return {
      async send(mail) {
        logger.info("mail (no SMTP configured)", { to: mail.to, subject: mail.subject, text: mail.text });
      },
      close() {},
    };
  }
  const url = new URL(options.smtpURL);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === "smtps:" ? 465 : 587),
    secure: url.protocol === "smtps:",
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    ignoreTLS: url.searchParams.get("tls") === "off",
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        logger.debug("mail sent", { to: mail.to, subject: mail.subject });
      } catch (error) {
        logger.error("mail delivery failed", { to: mail.to, subject: mail.subject, error: (error as Error).message });
      }
    },
    close: () => transport.close(),
  };
}
